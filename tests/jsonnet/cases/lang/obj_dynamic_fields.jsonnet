local k = 'dyn'; { [k]: 1, [k + '2']: 2, ['lit']: 3, [null]: 4 }
