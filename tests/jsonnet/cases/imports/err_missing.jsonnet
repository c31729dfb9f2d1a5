import 'missing.libsonnet'
