local x = 'outer'; [x for x in [1, 2]] + [x]
