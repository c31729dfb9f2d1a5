std.length(5)
