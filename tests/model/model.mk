# tests of src/model
if HAVE_CHECK
check_PROGRAMS += tests/model/check_model
tests_model_check_model_SOURCES = tests/model/check_model.c tests/model/check_model_packed.c \
                                  tests/model/check_model_split.c \
                                  tests/model/check_model_tail.c
tests_model_check_model_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CJSON_CFLAGS)
tests_model_check_model_LDADD = $(CORE_LIBS) $(CHECK_LIBS) $(CJSON_LIBS)
TESTS += tests/model/check_model
endif
