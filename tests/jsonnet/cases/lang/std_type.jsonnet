[std.type(null), std.type(true), std.type(1), std.type('s'), std.type([]), std.type({}), std.type(function() 1)]
