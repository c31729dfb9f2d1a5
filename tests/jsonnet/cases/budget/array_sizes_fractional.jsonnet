// std.makeArray, std.range and std.repeat with fractional sizes/bounds truncate like the reference.
{
  make: std.makeArray(2.5, function(i) i),
  range1: std.range(1.5, 3),
  range2: std.range(1, 3.5),
  range_empty: std.range(3, 1),
  rep_arr: std.repeat([1], 1.5),
  rep_str: std.repeat('ab', 2.5),
  rep_half: std.repeat('ab', 0.5),
  rep_zero: std.repeat([1, 2], 0),
}
