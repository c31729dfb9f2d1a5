|||
	one
	two
|||
