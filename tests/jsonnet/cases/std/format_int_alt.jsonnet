std.format("%#o %#x %#5x %#05x", [0, 0, 1, 1])
