{ [k]: 1 for k in ['a', 'a'] }
