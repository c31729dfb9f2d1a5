null + null
