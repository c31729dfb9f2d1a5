std.format("%c", ["ab"])
