{ [k]: std.length(k) for k in ['a', 'bb', 'ccc'] }
