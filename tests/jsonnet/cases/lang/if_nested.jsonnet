local c(n) = if n < 0 then 'neg' else if n == 0 then 'zero' else 'pos'; [c(-1), c(0), c(1)]
