{ a: 1, b: self.a + 1, c: self.b * 10 }
