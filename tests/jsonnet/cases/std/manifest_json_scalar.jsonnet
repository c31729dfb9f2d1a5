[std.manifestJson(1), std.manifestJson("s"), std.manifestJson([])]
