std.manifestToml([])
