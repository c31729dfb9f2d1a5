local f(x) = "%s=%s" % [x.k, x.v]; std.join(",", [f({k: "a", v: 1}), f({k: "b", v: [2]})])
