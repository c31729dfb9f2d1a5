local k(o) = o.id; std.setUnion([{ id: 1 }, { id: 3 }], [{ id: 2 }, { id: 3, x: 1 }], k)
