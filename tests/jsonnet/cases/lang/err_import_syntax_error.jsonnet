import 'lib/broken.libsonnet'
