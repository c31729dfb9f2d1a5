local twice(f) = function(x) f(f(x)); twice(function(x) x * 3)(2)
