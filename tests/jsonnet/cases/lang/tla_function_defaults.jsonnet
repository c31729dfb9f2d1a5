function(a='x', b=2) { a: a, b: b }
