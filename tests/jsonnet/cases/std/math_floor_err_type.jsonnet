std.floor("a")
