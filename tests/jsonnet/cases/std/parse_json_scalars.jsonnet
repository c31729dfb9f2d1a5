[std.parseJson("  7 "), std.parseJson("\"s\""), std.parseJson("null"), std.parseJson("-1.5e2")]
