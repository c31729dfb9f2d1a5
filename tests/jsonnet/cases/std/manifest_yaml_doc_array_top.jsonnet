std.manifestYamlDoc([{a: 1, b: [1]}, [[1]], "s\n", [], {}, null])
