assert 'yes'; 1
