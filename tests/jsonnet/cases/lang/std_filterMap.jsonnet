std.filterMap(function(x) x % 2 == 0, function(x) x * 10, std.range(1, 6))
