|||
  [section]
  key = value
|||
