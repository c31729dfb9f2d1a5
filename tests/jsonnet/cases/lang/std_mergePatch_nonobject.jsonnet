[std.mergePatch({ a: 1 }, 'x'), std.mergePatch('x', { a: 1 }), std.mergePatch({ a: { b: 1 } }, { a: 'flat' })]
