|||
no indent
|||
