std.char(-1)
