"%(a)s-%(b)s" % {a: 1, b: "two"}
