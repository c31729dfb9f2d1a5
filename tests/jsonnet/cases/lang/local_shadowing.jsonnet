local x = 1; local x = 2; local f() = x; [x, f()]
