{ list: [self.a, self.b], a: 1, b: 2 }
