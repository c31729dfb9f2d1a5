'next to the case'
