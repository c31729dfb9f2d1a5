[std.all([true, true]), std.all([true, false]), std.all([]), std.any([false, true]), std.any([])]
