(import 'lib/conf.json').items[1]
