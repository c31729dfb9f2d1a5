std.manifestYamlStream([{a: [1]}, "x"], c_document_end=false, quote_keys=false)
