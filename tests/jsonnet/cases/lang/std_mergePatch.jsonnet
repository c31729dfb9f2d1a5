std.mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1] }, { a: null, b: { c: 20, x: 1 }, e: 5, f: { g: null, h: 1 } })
