{ a: self.b, b: self.a }
