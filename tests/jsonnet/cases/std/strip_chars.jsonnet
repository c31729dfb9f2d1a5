[std.stripChars("  ab  ", " "), std.lstripChars("aabba", "a"), std.rstripChars("aabba", "a"), std.stripChars("xyhixy", "yx"), std.stripChars("", "a"), std.stripChars("aaa", "a")]
