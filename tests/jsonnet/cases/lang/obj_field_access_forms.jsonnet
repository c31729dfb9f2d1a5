local o = { a: { b: 'x' }, 'k-k': 2 }; [o.a.b, o['a']['b'], o['k-k']]
