[x for x in []]
