local a = { x: { y: 1 } }; local b = a + { x+: { z: super.y } }; b
