({ a: error 'x', b: 1 } + { a: 2 }).a
