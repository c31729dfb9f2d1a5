({ a: 1 } + { assert super.a == 1 : 'super a', b: 2 }).b
