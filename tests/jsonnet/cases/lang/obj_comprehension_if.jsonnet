{ ['k' + x]: x for x in std.range(1, 6) if x % 2 == 0 }
