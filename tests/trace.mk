# trace tests
