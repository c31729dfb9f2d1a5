{ a: 1, b: 2 } + { a: super.a + 10, c: super.b * 3 }
