std.map(1, [1])
