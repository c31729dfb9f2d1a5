'abc'[3]
