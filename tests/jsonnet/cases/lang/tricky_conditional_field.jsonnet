local debug = false; { always: 1, [if debug then 'debug']: true }
