std.parseInt("12a")
