std.join('', std.reverse(std.stringChars('abc')))
