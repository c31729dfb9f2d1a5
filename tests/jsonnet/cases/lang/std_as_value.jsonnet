std.type(std)
