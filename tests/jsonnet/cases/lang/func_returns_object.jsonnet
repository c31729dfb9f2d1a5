local mk(name) = { name: name, greeting: 'hi ' + self.name }; mk('bob') + { name: 'alice' }
