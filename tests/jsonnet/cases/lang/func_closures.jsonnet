local mk(n) = function(x) x + n; local add5 = mk(5); [add5(1), mk(10)(1)]
