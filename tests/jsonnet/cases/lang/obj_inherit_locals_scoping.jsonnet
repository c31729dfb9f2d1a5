local x = 'outer'; { local x = 'obj', a: x } + { b: x }
