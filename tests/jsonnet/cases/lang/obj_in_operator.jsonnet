local o = { a: 1, b:: 2 }; ['a' in o, 'b' in o, 'c' in o]
