std.parseInt("")
