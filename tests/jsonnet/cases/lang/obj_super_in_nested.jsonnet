{ a: { x: 1 } } + { a: super.a { y: 2 } }
