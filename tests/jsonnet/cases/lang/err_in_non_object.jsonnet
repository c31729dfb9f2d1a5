'a' in [1]
