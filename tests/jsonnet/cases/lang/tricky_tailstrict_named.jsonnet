local f(n, acc=0) = if n == 0 then acc else f(n - 1, acc=acc + n) tailstrict; f(100)
