std.format("%s", ["a", "b"])
