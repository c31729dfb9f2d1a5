local f(a, b=a * 2, c=a + b) = [a, b, c]; [f(1), f(1, 5), f(1, c=0)]
