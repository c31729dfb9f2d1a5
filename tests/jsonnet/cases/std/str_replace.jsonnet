[std.strReplace("aaa", "aa", "b"), std.strReplace("a.b.c", ".", "::"), std.strReplace("abc", "x", "y"), std.strReplace("", "a", "b"), std.strReplace("😀x😀", "😀", "-")]
