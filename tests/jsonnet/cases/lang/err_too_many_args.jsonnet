local f(a) = a; f(1, 2)
