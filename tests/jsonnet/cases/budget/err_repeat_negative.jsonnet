std.repeat('x', -1)
