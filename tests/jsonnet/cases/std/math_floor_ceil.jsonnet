[std.floor(2.7), std.floor(-2.2), std.ceil(2.1), std.ceil(-2.9), std.floor(5)]
