local fact(n) = if n <= 1 then 1 else n * fact(n - 1); [fact(5), fact(10), fact(20)]
