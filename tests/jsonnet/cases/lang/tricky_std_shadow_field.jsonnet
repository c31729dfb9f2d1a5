{ std: 1, v: std.length([1, 2]) }
