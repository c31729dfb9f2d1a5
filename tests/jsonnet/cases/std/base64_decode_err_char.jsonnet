std.base64DecodeBytes("Y!==")
