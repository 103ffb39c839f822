# diff command
