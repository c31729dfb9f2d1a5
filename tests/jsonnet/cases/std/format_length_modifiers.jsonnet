std.format("%ld %hd %Lf", [1, 2, 0.25])
