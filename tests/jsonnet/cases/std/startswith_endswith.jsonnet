[std.startsWith("foobar", "foo"), std.startsWith("foo", "foobar"), std.endsWith("foobar", "bar"), std.endsWith("a", ""), std.startsWith("", ""), std.endsWith("ab😀", "😀")]
