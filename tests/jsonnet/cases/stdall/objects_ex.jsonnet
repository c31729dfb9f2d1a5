// std.objectFieldsEx / std.objectHasEx (present in 0.18 and 0.21).
local o = { a: 1, b:: 2, c::: 3 } + { d: 4 };
{
  fieldsVisible: std.objectFieldsEx(o, false),
  fieldsAll: std.objectFieldsEx(o, true),
  hasHiddenVisible: std.objectHasEx(o, 'b', false),
  hasHiddenAll: std.objectHasEx(o, 'b', true),
  hasMissing: std.objectHasEx(o, 'z', true),
  hasVisible: std.objectHasEx(o, 'c', false),
}
