{ base: 10, items: { [k]: $.base + std.length(k) for k in ['a', 'bb'] } }
