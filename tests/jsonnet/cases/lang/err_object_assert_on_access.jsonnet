local o = { assert self.x > 0, x: -1 }; o.x
