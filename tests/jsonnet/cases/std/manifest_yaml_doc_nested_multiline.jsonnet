std.manifestYamlDoc({a: {b: ["l1\nl2\n", "x"]}})
