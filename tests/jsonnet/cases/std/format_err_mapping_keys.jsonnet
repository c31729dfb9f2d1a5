std.format("%s", {a: 1})
