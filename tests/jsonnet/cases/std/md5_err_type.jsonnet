std.md5(1)
