std.format("%g", [0])
