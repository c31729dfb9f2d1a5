std.format("abc %", [1])
