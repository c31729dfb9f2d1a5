local o = { b: 1, a: 2, h:: 3 }; [std.objectKeysValues(o), std.objectKeysValuesAll(o)]
