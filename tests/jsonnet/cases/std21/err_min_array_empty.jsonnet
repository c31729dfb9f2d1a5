std.minArray([])
