std.parseInt("+5")
