{ ['' + i]: i * i for i in std.range(8, 12) }
