'lib1'
