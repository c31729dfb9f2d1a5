if true then 1 else undefinedVar
