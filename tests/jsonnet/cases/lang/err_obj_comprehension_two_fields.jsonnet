{ a: 1, [k]: 2 for k in ['b'] }
