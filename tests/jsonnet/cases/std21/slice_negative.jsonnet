// Jsonnet 0.21 slices: negative indices count from the end, negative steps walk backwards.
{
  last: [1, 2, 3][-1:],
  dropLast: [1, 2, 3, 4][:-1],
  mid: 'abcdef'[-4:-1],
  rev: [1, 2, 3, 4, 5][::-1],
  revStep: [1, 2, 3, 4, 5][::-2],
  revRange: 'abcdef'[4:1:-1],
  revNeg: [1, 2, 3, 4, 5][-1:-4:-1],
  clampLow: [1, 2, 3][-10:2],
  clampHigh: [1, 2, 3][1:10],
  empty: [1, 2, 3][2:1],
  emptyRev: [1, 2, 3][1:2:-1],
  fn: std.slice([1, 2, 3, 4], -3, null, 2),
  unicode: 'aé😀b'[::-1],
}
