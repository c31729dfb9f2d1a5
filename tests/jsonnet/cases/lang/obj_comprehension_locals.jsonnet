{ local sq = x * x, ['n' + x]: sq for x in [2, 3] }
