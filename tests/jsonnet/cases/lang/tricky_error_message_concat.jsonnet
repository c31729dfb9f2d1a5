local x = { a: 1 }; if std.objectHas(x, 'b') then x.b else 'no b in ' + std.toString(x)
