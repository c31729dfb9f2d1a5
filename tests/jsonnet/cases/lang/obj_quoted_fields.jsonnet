{ 'with space': 1, "dq": 2, 'é': 3, '': 4 }
