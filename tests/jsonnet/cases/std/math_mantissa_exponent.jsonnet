[std.mantissa(8), std.exponent(8), std.mantissa(0), std.exponent(0), std.exponent(1e-310), std.mantissa(-0.375), std.exponent(-0.375), std.exponent(1e300)]
