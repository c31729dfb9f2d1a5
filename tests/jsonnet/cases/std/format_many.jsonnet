std.join("\n", ["%-10s%5d" % [n, std.length(n)] for n in ["alpha", "beta", "gamma"]])
