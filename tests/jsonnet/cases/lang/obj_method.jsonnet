{ greet(name, punct='!'):: 'hi ' + name + punct, out: self.greet('x'), out2: self.greet('y', '?') }
