local inner = import 'inner.libsonnet';
{ result: inner.value * 2 }
