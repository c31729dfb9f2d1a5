local f(a) = a; f(1, a=2)
