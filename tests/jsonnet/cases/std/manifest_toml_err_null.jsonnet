std.manifestToml({a: null})
