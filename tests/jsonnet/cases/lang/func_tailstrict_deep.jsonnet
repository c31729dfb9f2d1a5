local loop(n) = if n == 0 then 'done' else loop(n - 1) tailstrict; loop(20000)
