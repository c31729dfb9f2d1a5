std.format("%(b)s", {a: 1})
