std.parseHex("")
