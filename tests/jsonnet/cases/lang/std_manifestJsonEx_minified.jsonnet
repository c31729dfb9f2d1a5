std.manifestJsonEx({ b: [1, { c: true }], a: null }, '', '', ':')
