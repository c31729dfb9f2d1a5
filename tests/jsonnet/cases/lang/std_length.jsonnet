[std.length('héllo'), std.length([1, 2]), std.length({ a: 1, b:: 2 }), std.length('')]
