local o = { a: 1, b:: 2 }; [std.objectHas(o, 'a'), std.objectHas(o, 'b'), std.objectHasAll(o, 'b'), std.objectHas(o, 'z')]
