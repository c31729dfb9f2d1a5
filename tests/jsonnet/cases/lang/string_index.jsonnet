local s = 'abc'; [s[0], s[2], std.length(s)]
