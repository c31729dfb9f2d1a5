std.exp(1000)
