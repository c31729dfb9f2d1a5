std.find(2, [1, 2, 3, 2])
