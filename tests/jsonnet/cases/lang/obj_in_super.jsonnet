{ a: 1 } + { has_a: 'a' in super, has_z: 'z' in super }
