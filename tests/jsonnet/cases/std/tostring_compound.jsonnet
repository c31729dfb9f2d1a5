[std.toString([1, [2, []], {}]), std.toString({b: 1, a: [null]}), "" + {x: "y\n"}]
