'' + 0.1 + ' ' + std.toString(1.5)
