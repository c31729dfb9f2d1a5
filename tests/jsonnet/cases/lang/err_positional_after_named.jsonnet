local f(a, b) = a; f(a=1, 2)
