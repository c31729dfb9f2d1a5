std.split("a", 1)
