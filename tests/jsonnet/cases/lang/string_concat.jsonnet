['a' + 'b', 'n' + 1, 1 + 'n', 'x' + null, 'b' + true, 'o' + {a: 1}, 'arr' + [1, 'x']]
