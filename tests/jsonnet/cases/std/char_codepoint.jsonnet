[std.char(65), std.char(128512), std.char(65.9), std.codepoint("A"), std.codepoint("😀"), std.codepoint("é")]
