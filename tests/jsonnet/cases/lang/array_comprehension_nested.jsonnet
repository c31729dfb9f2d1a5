[[x, y] for x in [1, 2, 3] for y in ['a', 'b'] if x != 2]
