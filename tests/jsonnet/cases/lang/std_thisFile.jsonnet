std.length(std.thisFile) > 0
