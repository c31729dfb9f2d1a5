std.format("plain text", [])
