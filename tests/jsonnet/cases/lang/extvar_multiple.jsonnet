[std.extVar('a'), std.extVar('b'), std.extVar('c').k]
