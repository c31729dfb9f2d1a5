std.parseHex("0x10")
