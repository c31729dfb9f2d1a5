[std.base64DecodeBytes("AP+A"), std.base64DecodeBytes("aA==")]
