std.makeArray(5, function(i) i * i)
