local s = 'hé中llo'; [s[1:3], s[2], std.length(s)]
