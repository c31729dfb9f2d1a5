std.repeat([1], -2)
