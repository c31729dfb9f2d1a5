std.strReplace("abc", "", "x")
