std.parseJson(importstr 'lib/conf.json').items
