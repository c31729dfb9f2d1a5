local a = 1; [local a = 2; a, a, (local b = a + 10; b)]
