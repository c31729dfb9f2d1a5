[std.isString('a'), std.isNumber(1), std.isBoolean(false), std.isArray([]), std.isObject({}), std.isFunction(std.map), std.isString(1)]
