local add(a, b=10) = a + b; [add(1), add(1, 2), add(b=3, a=4)]
