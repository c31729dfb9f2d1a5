[std.abs(-3), std.abs(2.5), std.abs(0), std.sign(-2), std.sign(0), std.sign(7.5)]
