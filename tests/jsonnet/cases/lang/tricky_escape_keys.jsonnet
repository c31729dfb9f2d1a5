{ 'a"b': 1, 'tab\there': 2, 'nl\n': 3, '\u0000': 4 }
