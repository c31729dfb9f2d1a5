// 0.18 failed with "overflow" (log of 0); 0.21 gives 0 for every %g form.
[std.format("%g", [0]), std.format("%#g", [0]), std.format("%10.3G", [0])]
