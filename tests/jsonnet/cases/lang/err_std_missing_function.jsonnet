std.noSuchFunction(1)
