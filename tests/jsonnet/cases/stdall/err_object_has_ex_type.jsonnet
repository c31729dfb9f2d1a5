std.objectHasEx({ a: 1 }, 'a', 'yes')
