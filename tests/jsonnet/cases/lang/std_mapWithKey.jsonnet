std.mapWithKey(function(k, v) k + '=' + v, { a: '1', b: '2', h:: 'hidden' })
