std.native(1)
