// Jsonnet 0.20/0.21 hashes (standard test vectors) and std.objectRemoveKey.
{
  sha1: std.sha1('abc'),
  sha256: std.sha256('abc'),
  sha512: std.sha512('abc'),
  sha3: std.sha3('abc'),
  removeKey: std.objectRemoveKey({ a: 1, b: 2, c:: 3 }, 'b'),
  removeMissing: std.objectRemoveKey({ a: 1 }, 'z'),
}
