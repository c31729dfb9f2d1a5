[std.max(1, 2), std.max(-1, -2), std.min(1, 2), std.min(-1.5, 3)]
