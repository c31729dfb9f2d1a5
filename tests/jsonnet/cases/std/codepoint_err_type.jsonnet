std.codepoint(1)
