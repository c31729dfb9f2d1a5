[true || error 'no', false && error 'no', true && true, false || false]
