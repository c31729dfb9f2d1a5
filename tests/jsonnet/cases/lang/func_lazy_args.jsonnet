local f(a, b) = a; f(1, error 'not evaluated')
