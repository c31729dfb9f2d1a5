{ [a + b]: [a, b] for a in ['x', 'y'] for b in ['1', '2'] }
