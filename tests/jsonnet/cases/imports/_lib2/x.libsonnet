'lib2'
