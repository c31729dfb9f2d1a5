std.pow(-8, 1/3)
