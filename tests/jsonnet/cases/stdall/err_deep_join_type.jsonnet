std.deepJoin(['a', 1])
