// std.setInter indexes its operands: a string is the set of its characters.
local Base = {
  local names = ["x", "y", "z"],
  assert std.length(std.setInter(self.pick, names)) > 0 : "not one of %s" % [names],
  pick: error "pick is required",
};
{
  obj: Base { pick: "y" },
  strs: std.setInter("hello", "world"),
  mixed: std.setInter("b", ["a", "b"]),
}
