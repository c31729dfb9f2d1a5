"%s is %d years" % ["Bob", 42]
