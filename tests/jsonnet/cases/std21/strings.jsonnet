// Jsonnet 0.20/0.21 string functions, expectations from the 0.21 standard library docs.
{
  trim: [std.trim('  a b \t\n'), std.trim(''), std.trim('x')],
  equalsIgnoreCase: [std.equalsIgnoreCase('AbC', 'aBc'), std.equalsIgnoreCase('a', 'b')],
  isEmpty: [std.isEmpty(''), std.isEmpty(' ')],
  escapeStringXml: std.escapeStringXml('<a href="x">&\'</a>'),
  splitLimitR: [
    std.splitLimitR('a,b,c', ',', 1),
    std.splitLimitR('a,b,c', ',', -1),
    std.splitLimitR('a,b,c', ',', 5),
  ],
}
