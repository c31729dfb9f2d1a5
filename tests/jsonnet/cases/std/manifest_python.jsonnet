std.manifestPython({b: [true, false, null], a: "x'y", c: {d: 1.5}, e: []})
