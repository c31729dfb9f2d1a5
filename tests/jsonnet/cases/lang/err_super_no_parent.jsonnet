{ a: super.x }
