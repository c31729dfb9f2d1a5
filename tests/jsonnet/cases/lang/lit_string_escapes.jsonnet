["a\"b", 'c\'d', "tab\there", "nl\nx", "\\", "\/", "\b\f\r", "\u00e9\u4e2d", "\ud83d\ude00"]
