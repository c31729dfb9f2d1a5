local isEven(n) = if n == 0 then true else isOdd(n - 1), isOdd(n) = if n == 0 then false else isEven(n - 1); [isEven(10), isOdd(7), isEven(3)]
