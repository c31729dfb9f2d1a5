{ local x = 10, local y = x * 2, a: x, b: y, c: self.a + y }
