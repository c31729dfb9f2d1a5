(function(x, y=2) x * y)(21)
