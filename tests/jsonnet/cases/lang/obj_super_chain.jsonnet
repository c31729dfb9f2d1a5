{ x: 1 } + { x: super.x * 2 } + { x: super.x + 3 }
