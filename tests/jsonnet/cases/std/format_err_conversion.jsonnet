std.format("%z", [1])
