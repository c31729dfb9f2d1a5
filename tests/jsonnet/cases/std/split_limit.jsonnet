[std.splitLimit("a,b,c,d", ",", 2), std.splitLimit("a,b,c", ",", 0), std.splitLimit("a,b,c", ",", -1)]
