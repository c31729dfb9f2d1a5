std.format("%c%c%c|%5c|", [72, "i", 128512, "z"])
