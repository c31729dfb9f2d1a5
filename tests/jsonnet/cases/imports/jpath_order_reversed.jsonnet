// Import search order (reference: importing file's directory, then -J dirs right-most first).
{
  rightmost: import 'x.libsonnet',
  only: import 'only1.libsonnet',
  local: import 'local_wins.libsonnet',
  str: importstr 'x.libsonnet',
}
