null.a
