std.codepoint("ab")
