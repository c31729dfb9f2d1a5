std.format("%c", [[1]])
