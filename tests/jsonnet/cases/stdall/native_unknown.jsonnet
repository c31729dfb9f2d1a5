std.native('nope')
