std.parseJson("\"\\u00e9\\ud83d\\ude00\"")
