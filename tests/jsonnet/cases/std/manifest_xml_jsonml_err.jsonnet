std.manifestXmlJsonml("x")
