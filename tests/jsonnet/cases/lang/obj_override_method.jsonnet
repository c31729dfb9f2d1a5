local b = { f(x):: x, r: self.f(2) }; b + { f(x):: super.f(x) * 100 }
