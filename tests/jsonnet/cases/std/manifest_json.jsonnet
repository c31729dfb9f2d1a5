std.manifestJson({b: [1, {c: "x"}], a: [], e: {}, d: null, f: true, g: "é\n"})
