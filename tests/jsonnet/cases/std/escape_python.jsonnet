std.escapeStringPython("it's \"q\"\n")
