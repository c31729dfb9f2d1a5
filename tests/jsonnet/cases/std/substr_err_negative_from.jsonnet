std.substr("abc", -1, 2)
