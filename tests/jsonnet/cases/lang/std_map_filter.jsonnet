[std.map(function(x) x + 1, [1, 2, 3]), std.filter(function(x) x > 1, [1, 2, 3]), std.map(function(c) c + c, 'ab')]
