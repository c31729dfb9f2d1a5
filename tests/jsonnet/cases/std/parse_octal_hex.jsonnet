[std.parseOctal("755"), std.parseOctal("0"), std.parseHex("fF"), std.parseHex("DEADbeef"), std.parseHex("0")]
