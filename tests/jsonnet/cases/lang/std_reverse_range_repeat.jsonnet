[std.reverse([1, 2, 3]), std.range(-2, 2), std.range(5, 1), std.repeat('ab', 3), std.repeat([1], 2)]
