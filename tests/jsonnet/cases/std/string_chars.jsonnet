[std.stringChars("ab😀"), std.stringChars("")]
