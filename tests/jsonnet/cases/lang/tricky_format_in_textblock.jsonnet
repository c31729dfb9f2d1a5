local tmpl = |||
  name=%(name)s
  port=%(port)d
|||; tmpl % { name: 'svc', port: 8080 }
