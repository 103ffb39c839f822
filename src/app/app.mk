# app layer: what both front ends (cli, ui) share: the command line and its
# options, loading a session, the output formats, the diff request.
libcore_a_SOURCES += \
	src/app/options.c src/app/optvalues.c src/app/usage.c src/app/options.h \
	src/app/format.h src/app/format_common.c src/app/format_json.c \
	src/app/format_csv.c src/app/format_text.c \
	src/app/session.c src/app/session.h \
	src/app/summary_job.c src/app/summary_job.h src/app/summary_job_colls.c \
	src/app/summary_job_files.c \
	src/app/summary_job_findings.c \
	src/app/summary_job_diff.c src/app/summary_job_diff.h \
	src/app/diff_request.c src/app/diff_request.h \
	src/app/prefs.c src/app/prefs.h \
	src/app/name_fit.c src/app/name_fit.h \
	src/app/cache.c src/app/cache.h \
	src/app/rank_summary.c src/app/rank_summary.h
