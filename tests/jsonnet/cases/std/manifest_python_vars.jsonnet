std.manifestPythonVars({b: [1], a: "s", c: null})
