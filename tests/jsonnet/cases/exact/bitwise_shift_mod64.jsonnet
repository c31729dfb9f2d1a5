// Shift counts are taken modulo 64 (0.18 and 0.21 agree); results stay exact integers.
[1 << 64, 1 << 65, 1 >> 70, -1 << 63, -1 >> 1, 5 >> 64, 1.5 << 1, ~std.pow(2, 53)]
