(function() 1) == (function() 1)
