// std.isNull is new in 0.21.
[std.isNull(null), std.isNull(0), std.isNull([]), std.isNull("null")]
