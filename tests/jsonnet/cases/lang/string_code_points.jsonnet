['😀x'[0], std.length('😀x'), 'a😀b'[2]]
