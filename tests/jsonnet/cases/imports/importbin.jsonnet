{ bytes: importbin '_bytes.bin', again: (importbin '_bytes.bin')[3] }
