function(cfg, name='n') { name: name, v: cfg.v + 1 }
