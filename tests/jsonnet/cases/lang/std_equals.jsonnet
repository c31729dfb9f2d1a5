[std.equals({ a: [1] }, { a: [1] }), std.equals([1], [2])]
