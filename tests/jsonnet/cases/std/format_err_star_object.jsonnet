std.format("%(a)*d", {a: 1})
