[std.sort([3, 1, 2]), std.sort(['b', 'a', 'C']), std.sort([{ n: 2 }, { n: 1 }], function(o) o.n), std.sort([])]
