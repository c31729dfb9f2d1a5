std.join(',', ['a', 1])
