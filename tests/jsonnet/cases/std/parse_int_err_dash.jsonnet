std.parseInt("-")
