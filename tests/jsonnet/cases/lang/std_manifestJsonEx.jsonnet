std.manifestJsonEx({ a: [1, 2, { b: {} }], c: 'x', d: [] }, '  ')
