local f(a) = a; f(b=1)
