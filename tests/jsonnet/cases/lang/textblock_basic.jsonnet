|||
  line one
  line two
|||
