assert false; 1
