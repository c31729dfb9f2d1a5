std.mapWithIndex(function(i, x) [i, x], ['a', 'b'])
