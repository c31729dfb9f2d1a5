local f(n) = if n == 0 then 0 else 1 + f(n - 1); f(100000)
