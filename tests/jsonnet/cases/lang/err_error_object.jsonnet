error { a: 1 }
