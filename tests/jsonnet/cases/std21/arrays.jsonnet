// Jsonnet 0.20/0.21 array functions, expectations from the 0.21 standard library docs.
{
  all: [std.all([true, true]), std.all([true, false]), std.all([])],
  any: [std.any([false, true]), std.any([false]), std.any([])],
  avg: [std.avg([1, 2, 3, 4]), std.avg([5])],
  contains: [std.contains([1, [2], 'x'], [2]), std.contains([1, 2], '1'), std.contains([], 1)],
  remove: [std.remove([1, 2, 1, 3], 1), std.remove([1, 2], 5)],
  removeAt: [std.removeAt(['a', 'b', 'c'], 1), std.removeAt(['a'], 0)],
  minArray: [std.minArray([3, 1, 2]), std.minArray(['bb', 'a', 'ccc'], function(s) std.length(s))],
  maxArray: [std.maxArray([3, 1, 2]), std.maxArray(['bb', 'a', 'ccc'], function(s) -std.length(s))],
  emptyDefault: [std.minArray([], onEmpty='none'), std.maxArray([], onEmpty=0)],
  flattenDeepArray: [std.flattenDeepArray([1, [2, [3, [[]]]], [[4]]]), std.flattenDeepArray(5)],
}
