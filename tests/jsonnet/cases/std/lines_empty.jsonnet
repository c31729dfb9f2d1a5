std.lines([])
