std.extVar('who') + '!'
