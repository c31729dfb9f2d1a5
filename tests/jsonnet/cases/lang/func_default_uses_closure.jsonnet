local k = 7; local f(x=k) = x; local k2 = 8; f()
