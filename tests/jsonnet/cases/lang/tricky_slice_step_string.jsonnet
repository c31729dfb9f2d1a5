'abcdefghij'[1:9:3]
