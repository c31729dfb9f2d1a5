std.manifestIni({sections: {only: {a: "b"}}})
