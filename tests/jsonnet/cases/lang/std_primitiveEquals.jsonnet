[std.primitiveEquals(1, 1), std.primitiveEquals('a', 'b'), std.primitiveEquals(null, null), std.primitiveEquals(1, '1')]
