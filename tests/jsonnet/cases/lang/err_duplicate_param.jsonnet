local f(a, a) = a; f(1, 2)
