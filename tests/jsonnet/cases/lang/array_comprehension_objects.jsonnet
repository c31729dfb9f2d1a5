[{ k: x, d: x * 2 } for x in [1, 2]]
