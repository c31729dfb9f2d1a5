std.substr("abc", 0, -1)
