std.format("%x %x", [1e20, 255.9])
