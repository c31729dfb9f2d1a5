std.format("%d", ["x"])
