[std.map]
