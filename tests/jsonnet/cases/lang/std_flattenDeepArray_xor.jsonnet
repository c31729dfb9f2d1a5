[std.flattenDeepArray([1, [2, [3, [[]], 4]], 'x']), std.xor(true, false), std.xnor(true, false), std.resolvePath('a/b/c.jsonnet', 'd.libsonnet')]
