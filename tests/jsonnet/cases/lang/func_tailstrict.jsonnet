local sum(n, acc) = if n == 0 then acc else sum(n - 1, acc + n) tailstrict; sum(1000, 0)
