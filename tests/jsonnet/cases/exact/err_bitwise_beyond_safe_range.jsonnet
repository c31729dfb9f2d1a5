std.pow(2, 70) & 1
