std.max("a", 1)
