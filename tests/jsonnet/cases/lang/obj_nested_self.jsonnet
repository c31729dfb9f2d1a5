{ outer: { inner: self.v, v: 'inner-v' }, v: 'outer-v' }
