{ n: 3, f():: self.n * 2, r: self.f() }
