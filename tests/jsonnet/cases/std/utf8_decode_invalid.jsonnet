std.decodeUTF8([255, 65])
