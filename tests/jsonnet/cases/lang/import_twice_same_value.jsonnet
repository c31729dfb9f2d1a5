local a = import 'lib/helper.libsonnet'; local b = import 'lib/helper.libsonnet'; a == b
