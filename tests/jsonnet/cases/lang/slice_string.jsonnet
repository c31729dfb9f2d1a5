local s = 'hello world'; [s[0:5], s[6:], s[::2], s[:0], s[3:4]]
