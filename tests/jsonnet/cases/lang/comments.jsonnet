// line
# hash
/* block
 comment */ { a: 1 /* inline */, // trailing
 b: 2 # another
 }
