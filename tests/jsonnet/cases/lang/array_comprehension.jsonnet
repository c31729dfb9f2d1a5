[x * x for x in [1, 2, 3, 4]]
