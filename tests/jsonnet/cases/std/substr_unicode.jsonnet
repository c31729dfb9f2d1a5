[std.substr("a😀bc", 1, 2), std.length("a😀bc"), std.substr("日本語", 1, 1)]
