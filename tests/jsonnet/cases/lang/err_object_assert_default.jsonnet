{ assert false, a: 1 }
