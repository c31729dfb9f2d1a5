local f(x, y, z) = x + '-' + y + '-' + z; [f('a', 'b', 'c'), f(z='c', y='b', x='a'), f('a', z='c', y='b')]
