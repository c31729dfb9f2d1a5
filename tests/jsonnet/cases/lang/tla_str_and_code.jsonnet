function(s, c) [s, c]
