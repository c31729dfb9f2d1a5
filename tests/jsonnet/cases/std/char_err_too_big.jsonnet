std.char(1114112)
