std.stripChars("😀hi😀", "😀")
