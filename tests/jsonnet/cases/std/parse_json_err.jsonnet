std.parseJson("{bad")
