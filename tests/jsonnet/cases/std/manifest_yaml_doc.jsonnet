std.manifestYamlDoc({a: [1, [2, 3], {b: "x\ny\n"}, [], {}], "c d": {e: null, f: "", g: [[]]}, h: true})
