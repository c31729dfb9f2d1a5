local f(a, g=function(x) x + a) = g(1); [f(10), f(10, function(x) x * 100)]
