std.manifestYamlStream({a: 1})
