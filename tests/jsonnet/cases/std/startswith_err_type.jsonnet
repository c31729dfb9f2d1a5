std.startsWith(1, "a")
