local a = [1, error 'boom']; a[1]
