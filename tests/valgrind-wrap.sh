#!/bin/sh
# LOG_COMPILER of `make check-valgrind` (configure --enable-valgrind): runs
# one test program under valgrind memcheck. Any memory error or definite or
# indirect leak fails the test. CK_FORK=no keeps Check's tests in the
# process valgrind watches. Shell tests (*.sh) run as they are (valgrind
# would only watch the shell), with HTX_VALGRIND=1 so that those that run
# htx under valgrind themselves (tests/hostile/valgrind.sh) know to.
case $1 in
*.sh) HTX_VALGRIND=1
      export HTX_VALGRIND
      exec "$@" ;;
esac
CK_FORK=no
HTX_MEMCHECK=1   # tests/memcheck.h: fewer random rounds
export CK_FORK HTX_MEMCHECK
exec valgrind --quiet --error-exitcode=1 --leak-check=full \
    --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
    --track-origins=yes --num-callers=30 "$@"
