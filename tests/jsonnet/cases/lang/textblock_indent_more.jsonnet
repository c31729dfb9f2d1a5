{ a: |||
    foo
      bar
    baz
  |||, }
