std.format("%(abc", {abc: 1})
