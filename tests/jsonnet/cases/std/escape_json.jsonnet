std.escapeStringJson("a\"b\\c\n\t\r\b\f\u0001\u007f\u0080\u00a0é😀/")
