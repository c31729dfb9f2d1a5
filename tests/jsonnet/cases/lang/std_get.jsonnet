local o = { a: 1, h:: 2 }; [std.get(o, 'a'), std.get(o, 'z'), std.get(o, 'z', 'dflt'), std.get(o, 'h'), std.get(o, 'h', 'no', false)]
