// std functions shared by 0.18 and 0.21 that had no differential case.
{
  assertEqual: std.assertEqual({ a: [1, 2] }, { a: [1, 2] }),
  deepJoin: std.deepJoin(['a', ['b', ['c', []], 'd'], [[['e']]]]),
  count: [std.count([1, 2, 1, 'a', [1]], 1), std.count([], null), std.count([[1], [1]], [1])],
  member: [std.member([1, 2, 3], 2), std.member([1], '1'), std.member('abc', 'b'), std.member('', 'x')],
  resolvePath: [std.resolvePath('a/b/c.jsonnet', 'd.libsonnet'), std.resolvePath('c.jsonnet', 'x'), std.resolvePath('/a/', 'y')],
  thisFileEnds: std.endsWith(std.thisFile, 'misc_18.jsonnet'),
  trace: std.trace('tracing', { ok: true }),
  parseYaml: std.parseYaml('a: 1\nb: ["y", 2.5, true]\nc:\n  "d": 3\n'),
  native: std.native('nope'),
}
