{ a: 1, b:: 2, c: self.b + 1 }
