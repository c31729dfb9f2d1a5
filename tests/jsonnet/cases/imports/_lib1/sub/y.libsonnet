'sub of lib1'
