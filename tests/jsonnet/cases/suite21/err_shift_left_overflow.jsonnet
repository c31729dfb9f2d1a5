// 0.21: a left shift whose result leaves int64 fails (0.18 wrapped around).
local v = std.pow(2, 52);
v << 11
