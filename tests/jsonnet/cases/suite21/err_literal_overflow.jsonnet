// A number literal beyond the double range fails where it is used.
[1, 1e309]
