std.format("%e %f %d", [0, 0, 0])
