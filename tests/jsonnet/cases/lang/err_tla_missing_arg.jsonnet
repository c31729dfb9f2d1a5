function(x) x
