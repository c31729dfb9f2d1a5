{ 'if': 1, 'local': 2, 'self': 3, 'null': 4 }
