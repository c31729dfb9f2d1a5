[std.length("😀😀"), std.length("é"), "a😀b"[1]]
