std.sqrt(-1)
