[std.foldl(function(acc, x) acc + [x], [1, 2, 3], []), std.foldr(function(x, acc) acc + [x], [1, 2, 3], [])]
