{ a: std.repeat([], 1e300), b: std.repeat('', 1e300) }
