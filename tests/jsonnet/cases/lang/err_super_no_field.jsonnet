{ a: 1 } + { b: super.c }
