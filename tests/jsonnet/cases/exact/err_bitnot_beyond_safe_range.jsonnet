~std.pow(2, 54)
