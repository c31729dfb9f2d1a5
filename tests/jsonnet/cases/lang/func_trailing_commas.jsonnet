local f(a, b,) = a + b; f(1, 2,)
