[std.manifestYamlDoc("x"), std.manifestYamlDoc(""), std.manifestYamlDoc(3), std.manifestYamlDoc("multi\nline\n")]
