importbin 'lib/data.txt'
