[if false then 1, if true then 2]
