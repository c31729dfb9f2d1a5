std.extVar('cfg').n * 2
