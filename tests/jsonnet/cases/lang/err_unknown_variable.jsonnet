local a = 1; b
