local t = |||
  x=%s
|||; t % 'y'
