local x = 1, y = x + 1; [x, y]
