std.extVar('nope')
