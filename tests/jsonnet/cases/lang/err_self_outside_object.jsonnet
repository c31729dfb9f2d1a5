self.a
