[std.modulo(7, 3), std.modulo(-7, 3), std.modulo(7, -3), std.modulo(7.5, 2), 10 % 4]
