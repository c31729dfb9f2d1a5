(import 'jlib.libsonnet').name
