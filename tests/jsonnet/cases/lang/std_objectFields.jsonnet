local o = { b: 1, a:: 2, c::: 3 }; [std.objectFields(o), std.objectFieldsAll(o)]
