error 'custom failure'
