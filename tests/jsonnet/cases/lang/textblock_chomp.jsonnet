|||-
  no trailing newline
|||
