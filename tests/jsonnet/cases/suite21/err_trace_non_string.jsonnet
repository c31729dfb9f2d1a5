// std.trace needs a string message (0.18 and 0.21 agree).
local v = std.trace(3, {});
{ a: v }
