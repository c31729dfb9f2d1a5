[std.asciiUpper("abcXYZ-é1"), std.asciiLower("ABCxyz-É1"), std.asciiLower("")]
