[std.escapeStringBash("it's"), std.escapeStringBash(""), std.escapeStringBash(12)]
