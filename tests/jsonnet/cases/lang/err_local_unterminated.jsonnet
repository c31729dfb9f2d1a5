local x = 1 x
