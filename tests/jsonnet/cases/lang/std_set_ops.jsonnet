[std.setUnion([1, 3], [2, 3]), std.setInter([1, 2, 3], [2, 3, 4]), std.setDiff([1, 2, 3], [2]), std.setMember(2, [1, 2, 3]), std.setMember(5, [1, 2, 3])]
