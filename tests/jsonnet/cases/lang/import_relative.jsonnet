local lib = import 'lib/helper.libsonnet'; { g: lib.greet('x'), v: lib.version }
