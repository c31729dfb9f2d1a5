std.parseJson('1e400')
