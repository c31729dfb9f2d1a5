std.format("%d %d %d %d", [3.99, -3.99, -0.5, 1e30])
