std.modulo(5, 0)
