{ [k]:: k for k in ['a'] } + { b: 1 }
