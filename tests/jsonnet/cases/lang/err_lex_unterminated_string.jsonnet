'abc
