import '_lib1'
