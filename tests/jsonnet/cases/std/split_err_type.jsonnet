std.split(1, ",")
