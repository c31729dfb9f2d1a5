[std.escapeStringDollars("$x $$ ${y}"), std.escapeStringDollars(5)]
