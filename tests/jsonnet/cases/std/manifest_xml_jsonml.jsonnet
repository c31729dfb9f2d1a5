std.manifestXmlJsonml(["svg", {height: 100, width: "1"}, ["circle", {cx: 5}], "text", ["g", ["br"]]])
