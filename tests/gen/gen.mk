# The synthetic trace generator (tests/gen), its streaming JSON checker, and
# the shell tests that keep assets/ in sync and check the layering.
noinst_PROGRAMS += tests/gen/htx-gen tests/gen/json-check
tests_gen_htx_gen_SOURCES = tests/gen/htx_gen.c \
	tests/gen/gen_model.h tests/gen/gen_catalog.c \
	tests/gen/gen_sim.h tests/gen/gen_sim.c tests/gen/gen_rng.h \
	tests/gen/gen_write.h tests/gen/gen_write.c \
	tests/gen/gen_out.h tests/gen/gen_out.c \
	tests/gen/gen_coll.h tests/gen/gen_coll.c tests/gen/gen_plant.c
tests_gen_htx_gen_CPPFLAGS = $(AM_CPPFLAGS) $(ZLIB_CFLAGS)
tests_gen_htx_gen_LDADD = $(ZLIB_LIBS)
tests_gen_json_check_SOURCES = tests/gen/json_check.c
tests_gen_json_check_CPPFLAGS = $(AM_CPPFLAGS) $(ZLIB_CFLAGS)
tests_gen_json_check_LDADD = $(ZLIB_LIBS)

TESTS += tests/gen.sh tests/layering.sh
EXTRA_DIST += tests/lib.sh tests/gen.sh tests/layering.sh tests/gen/assets.sh \
	tests/bench.sh tests/bench_scale.sh tests/summary.sh
