std.lines(["a", "b", null, "c"])
