[std.join(', ', ['a', 'b', 'c']), std.join('-', []), std.join([0], [[1], [2, 3]]), std.join(',', ['a', null, 'b'])]
