{ a: 1, b:: error 'hidden never forced' }
