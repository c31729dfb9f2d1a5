{ a: error 'field boom' }
