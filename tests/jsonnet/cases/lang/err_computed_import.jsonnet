local p = 'x'; import p
