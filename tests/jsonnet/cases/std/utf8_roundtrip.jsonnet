[std.encodeUTF8("aé😀"), std.decodeUTF8([104, 105]), std.decodeUTF8(std.encodeUTF8("日本")), std.encodeUTF8("")]
