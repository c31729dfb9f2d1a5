local a = [1, error 'lazy', 3]; [a[0], a[2], std.length(a)]
