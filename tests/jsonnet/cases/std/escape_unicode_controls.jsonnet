std.escapeStringJson(std.join("", [std.char(i) for i in [1, 8, 9, 10, 12, 13, 27, 31, 32, 126, 127, 159, 160]]))
