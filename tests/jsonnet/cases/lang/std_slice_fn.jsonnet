[std.slice([1, 2, 3, 4, 5], 1, 4, 2), std.slice('abcdef', 0, 3, 1), std.slice([1, 2, 3], null, null, null)]
