[std.flatMap(function(x) [x, x], [1, 2]), std.flatMap(function(c) c + '.', 'abc')]
