importstr 'lib/data.txt'
