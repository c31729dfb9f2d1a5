{ value: 21 }
