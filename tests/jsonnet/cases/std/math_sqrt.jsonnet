[std.sqrt(16), std.sqrt(0), std.sqrt(2.25)]
