std.stripChars("..a.b..", ["."])
