import 'does_not_exist.libsonnet'
