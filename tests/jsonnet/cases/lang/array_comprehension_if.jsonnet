[x for x in std.range(1, 20) if x % 3 == 0]
