1 && true
