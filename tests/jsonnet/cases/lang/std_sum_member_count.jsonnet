[std.sum([1, 2, 3.5]), std.member([1, 2], 2), std.member('abc', 'b'), std.count([1, 2, 1, 1], 1)]
