[std.base64("hello"), std.base64("hi"), std.base64("h"), std.base64(""), std.base64([0, 255, 128]), std.base64("é")]
