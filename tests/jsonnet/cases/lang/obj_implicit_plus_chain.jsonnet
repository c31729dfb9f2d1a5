{ a: 1 } { b: 2 } { c: self.a + self.b }
