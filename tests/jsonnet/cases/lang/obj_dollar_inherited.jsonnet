local o = { v: 1, n: { r: $.v } }; o + { v: 2 }
