'line1\nline2'
