std.makeArray(-1, function(i) i)
