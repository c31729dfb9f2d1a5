[std.escapeStringJson(1), std.escapeStringJson(null), std.escapeStringJson([1])]
