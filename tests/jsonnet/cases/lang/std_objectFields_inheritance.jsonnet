std.objectFields({ a: 1, b:: 2 } + { b: 3, c: 4 })
