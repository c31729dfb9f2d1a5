std.format("%s|%s|%s|%s|%s", [[1, "a", null], {b: [], a: {}}, true, null, 1.5])
