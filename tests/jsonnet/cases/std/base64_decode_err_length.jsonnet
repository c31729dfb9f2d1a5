std.base64DecodeBytes("YQ")
