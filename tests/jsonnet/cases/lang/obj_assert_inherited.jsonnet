local base = { assert self.x < 10, x: 1 }; (base + { x: 5 }).x
