std.substr(1, 0, 1)
