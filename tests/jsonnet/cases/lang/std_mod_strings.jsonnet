std.mod('%s!', 'x')
