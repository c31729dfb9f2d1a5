[std.parseInt("123"), std.parseInt("-45"), std.parseInt("007"), std.parseInt("0")]
