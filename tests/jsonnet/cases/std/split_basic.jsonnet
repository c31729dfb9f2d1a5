[std.split("a,b,,c", ","), std.split("", ","), std.split("abc", ","), std.split(",", ",")]
