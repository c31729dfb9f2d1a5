'v=' + {a: [1, {b: null}], c: 'q"'}
