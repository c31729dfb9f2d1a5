local boom = error 'never'; local ok = 5; ok
