[std.md5(""), std.md5("hello"), std.md5("é😀")]
