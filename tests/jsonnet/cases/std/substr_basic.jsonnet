[std.substr("hello", 1, 3), std.substr("hello", 3, 10), std.substr("hello", 7, 2), std.substr("", 0, 0)]
