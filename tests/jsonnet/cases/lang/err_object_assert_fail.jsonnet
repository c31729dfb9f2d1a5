{ assert self.a > 10 : 'a too small', a: 1 }
