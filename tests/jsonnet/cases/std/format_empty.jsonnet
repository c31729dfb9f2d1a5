std.format("", [])
