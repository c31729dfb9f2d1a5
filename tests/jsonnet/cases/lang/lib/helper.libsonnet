{
  greet(name):: 'hello ' + name,
  version: 3,
}
