# Tests, laid out like src/: tests/<layer>/ holds the tests of src/<layer>
# and its fragment <layer>.mk; then the generator, the hostile-input suite
# (with the fuzz targets' replays) and the tests of the whole tree
# (layering, man page, generated assets) at the top.
include $(srcdir)/tests/util/util.mk
include $(srcdir)/tests/trace/trace.mk
include $(srcdir)/tests/model/model.mk
include $(srcdir)/tests/analysis/analysis.mk
include $(srcdir)/tests/summary/summary.mk
include $(srcdir)/tests/app/app.mk
include $(srcdir)/tests/cli/cli.mk
include $(srcdir)/tests/ui/ui.mk
include $(srcdir)/tests/gen/gen.mk
include $(srcdir)/tests/hostile/hostile.mk

# The README's first screen, its length and the documents it names.
TESTS += tests/readme.sh
EXTRA_DIST += tests/readme.sh tests/bench_doc.sh docs
