std.objectHas([], 'a')
