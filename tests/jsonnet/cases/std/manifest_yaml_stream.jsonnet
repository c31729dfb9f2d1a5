std.manifestYamlStream([1, {a: 2}, [3]])
