[1][null]
