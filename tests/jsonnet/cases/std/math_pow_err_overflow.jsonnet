std.pow(2, 1024)
