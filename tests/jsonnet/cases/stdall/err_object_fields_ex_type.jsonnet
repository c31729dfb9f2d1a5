std.objectFieldsEx([1], true)
