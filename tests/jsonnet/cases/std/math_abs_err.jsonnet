std.abs("x")
