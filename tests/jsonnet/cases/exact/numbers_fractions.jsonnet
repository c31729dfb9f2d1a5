// Non-integers: integral-looking large values keep exact digits; fractions below 2^53 compare
// exactly with the reference when their shortest and %.17g forms agree.
{
  half: 1e15 + 0.5,
  quarter: 0.25,
  neg: -2.5,
  tiny: 0.125,
  exp: 1e-300 * 0,
  int_div: 7 / 7,
  big_div: std.pow(2, 64) / 2,
}
