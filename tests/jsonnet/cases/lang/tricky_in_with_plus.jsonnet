local o = { a: 1 } + { b:: 2 }; ['a' in o, 'b' in o, std.objectHas(o, 'b')]
