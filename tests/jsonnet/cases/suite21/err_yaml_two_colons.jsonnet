// 0.21 (rapidyaml): a second key on a mapping line is an error (0.18 read "b:" as text).
std.parseYaml('a: b:')
