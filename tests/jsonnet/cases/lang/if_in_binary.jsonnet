1 + if true then 2 else 3
