{ local d = self.n * 2, n: 5, doubled: d } + { n: 50 }
