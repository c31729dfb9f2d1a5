{ name: 'from jpath' }
