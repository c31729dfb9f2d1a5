local base = { name: 'base', greet: 'hello ' + self.name }; base + { name: 'derived' }
