[std.substr("abcdef", 1.5, 2), std.substr("abcdef", 0, 2.9)]
