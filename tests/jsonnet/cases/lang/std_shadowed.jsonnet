local std = { length(x):: 42 }; std.length([1])
