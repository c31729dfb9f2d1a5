[std.base64Decode("aGVsbG8="), std.base64Decode("aGk="), std.base64Decode(""), std.base64Decode("w6k=")]
