std.parseInt(5)
