[std.sin(0), std.cos(0), std.tan(0), std.asin(1) * 2 > 3.14, std.acos(1), std.atan(0), std.floor(std.atan(1) * 4 * 1000)]
