std.all([true, 1])
