[std.exp(0), std.log(1), std.exp(1) > 2.718, std.log(std.exp(2))]
