[std.toString(1), std.toString(-0), std.toString(true), std.toString(null), std.toString("s"), std.toString(1e21), std.toString(123456789012)]
