{ pi: std.pi, sin: std.sin(std.pi / 2), deg: std.rad2deg(std.pi) }
