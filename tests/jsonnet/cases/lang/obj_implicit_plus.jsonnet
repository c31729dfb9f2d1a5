local base = { a: 1, b: 2 }; base { b: 20, c: 30 }
