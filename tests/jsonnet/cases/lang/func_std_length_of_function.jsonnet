std.length(function(a, b, c) a)
