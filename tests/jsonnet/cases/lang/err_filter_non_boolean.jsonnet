std.filter(function(x) x, [1])
