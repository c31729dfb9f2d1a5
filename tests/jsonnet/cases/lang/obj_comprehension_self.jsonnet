{ [k]: self.base + k for k in ['a', 'b'] } + { base:: 'p-' }
