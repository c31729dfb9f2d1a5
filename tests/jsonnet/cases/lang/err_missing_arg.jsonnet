local f(a, b) = a; f(1)
