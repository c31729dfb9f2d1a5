std.flattenArrays([[1, 2], [], [3, [4]]])
