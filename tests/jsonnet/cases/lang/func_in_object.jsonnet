{ f(x):: x + 1, g: self.f(1), h(a, b=2):: a * b, i: self.h(3) }
