std.log(0)
