std.format("%s %s", ["a"])
