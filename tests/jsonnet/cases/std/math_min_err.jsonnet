std.min(1, "b")
