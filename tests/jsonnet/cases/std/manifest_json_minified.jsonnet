std.manifestJsonMinified({a: [], b: {}, c: [1, {d: "x"}], e: null})
