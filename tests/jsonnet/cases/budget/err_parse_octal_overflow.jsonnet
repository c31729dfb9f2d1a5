std.parseOctal(std.repeat('7', 400))
