# generator and benchmark
