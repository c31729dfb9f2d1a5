local A = { name():: 'A' }; local B = A + { name():: 'B<' + super.name() + '>' }; local C = B + { name():: 'C<' + super.name() + '>' }; C.name()
