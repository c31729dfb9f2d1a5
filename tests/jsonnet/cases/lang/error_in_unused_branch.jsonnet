if true then 'fine' else error 'never'
