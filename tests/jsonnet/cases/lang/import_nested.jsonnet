(import 'lib/outer.libsonnet').result
