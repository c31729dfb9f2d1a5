[[x, y] for x in [1, 2, 3] for y in std.range(1, x)]
