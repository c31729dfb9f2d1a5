std.base64("😀")
