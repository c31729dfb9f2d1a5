{ f: function(x) x }
