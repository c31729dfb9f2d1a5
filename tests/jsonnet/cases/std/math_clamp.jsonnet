[std.clamp(5, 1, 3), std.clamp(-5, 1, 3), std.clamp(2, 1, 3)]
