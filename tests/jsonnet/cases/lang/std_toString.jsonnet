[std.toString(1), std.toString('s'), std.toString([1, 'a']), std.toString({ a: null }), std.toString(true)]
