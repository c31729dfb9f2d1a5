std.assertEqual([1, 2], [1, 3])
