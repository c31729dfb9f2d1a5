std.format("%-05d|%0-5d|%05s|", [1, 2, "ab"])
