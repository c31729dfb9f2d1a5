std.manifestIni({main: {a: 1, b: ["x", "y"]}, sections: {s2: {k: "v"}, s1: {z: true, n: null}}})
