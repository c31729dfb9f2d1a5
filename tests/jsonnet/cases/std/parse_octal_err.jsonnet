std.parseOctal("19")
