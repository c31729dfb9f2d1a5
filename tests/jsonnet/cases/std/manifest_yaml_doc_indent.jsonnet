std.manifestYamlDoc({a: [1, [2, 3], {b: "x\ny\n"}], c: {d: [4]}}, indent_array_in_object=true)
