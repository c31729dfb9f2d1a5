std.parseInt(std.repeat('9', 400))
