[std.findSubstr("aa", "aaaa"), std.findSubstr("", "abc"), std.findSubstr("x", "abc"), std.findSubstr("b", "a😀b")]
