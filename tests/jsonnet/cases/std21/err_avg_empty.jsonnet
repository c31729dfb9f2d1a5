std.avg([])
