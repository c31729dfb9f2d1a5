[std.pow(2, 10), std.pow(2, -1), std.pow(9, 0.5), std.pow(0, 0)]
