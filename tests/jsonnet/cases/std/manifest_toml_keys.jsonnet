std.manifestToml({"bare-key_1": 1, "needs quote": 2, "é": 3, "": 4})
