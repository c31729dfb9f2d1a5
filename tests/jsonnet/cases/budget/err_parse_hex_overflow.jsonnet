std.parseHex(std.repeat('f', 400))
