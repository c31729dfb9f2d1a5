{ v: 'root', nested: { deeper: { r: $.v } } }
