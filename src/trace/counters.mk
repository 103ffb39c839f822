# counters writer (htx counters)
