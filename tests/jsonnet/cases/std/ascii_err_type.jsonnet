std.asciiUpper(1)
