std.manifestToml({a: 1, b: "x", c: [1, [2, 3], {d: 4}], t: {x: {}, y: [{z: 1}, {}], "k.q": true}, e: {}})
