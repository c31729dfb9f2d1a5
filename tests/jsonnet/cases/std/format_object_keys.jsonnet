std.format("%(name)s=%(value)05d", {name: "port", value: 80})
