{ who: 'lib1 only', rel: import 'sub/y.libsonnet' }
