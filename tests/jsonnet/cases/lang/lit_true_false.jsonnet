[true, false]
