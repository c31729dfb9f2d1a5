// Jsonnet 0.20/0.21 math functions, expectations from the 0.21 standard library docs.
{
  round: [std.round(2.5), std.round(1.4), std.round(-1.6), std.round(7)],
  isEven: [std.isEven(4), std.isEven(3), std.isEven(0), std.isEven(-2)],
  isOdd: [std.isOdd(3), std.isOdd(4)],
  isInteger: [std.isInteger(3), std.isInteger(3.5)],
  isDecimal: [std.isDecimal(3.5), std.isDecimal(3)],
  log2: [std.log2(8), std.log2(1)],
  log10: [std.log10(100), std.log10(1)],
  deg2rad: [std.deg2rad(0), std.deg2rad(180) == std.pi],
  rad2deg: std.rad2deg(std.pi),
  hypot: std.hypot(3, 4),
  atan2: [std.atan2(0, 1), std.atan2(1, 1) * 4 == std.pi],
}
