[std.uniq([1, 1, 2, 2, 1]), std.set([3, 1, 2, 1]), std.set(['b', 'a', 'b'])]
