{ local f(x) = x + self.k, k: 1, r: f(10) } + { k: 100 }
