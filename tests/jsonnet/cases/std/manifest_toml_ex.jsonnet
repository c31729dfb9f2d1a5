std.manifestTomlEx({a: {b: {c: 1}}, top: [1, 2]}, "    ")
