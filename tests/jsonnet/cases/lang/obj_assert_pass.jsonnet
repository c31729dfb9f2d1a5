{ assert self.a > 0 : 'a must be positive', a: 5 }
