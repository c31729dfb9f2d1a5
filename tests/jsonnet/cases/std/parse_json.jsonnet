std.parseJson("{\"b\": [1, 2.5, \"x\", null, true], \"a\": {}}")
