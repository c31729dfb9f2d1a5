std.prune({ a: null, b: [], c: {}, d: [null, 1, [], {}], e: { f: null, g: 2 }, h: 0, i: '', j: false })
