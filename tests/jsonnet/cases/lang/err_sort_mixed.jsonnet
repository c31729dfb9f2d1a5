std.sort([1, 'a'])
