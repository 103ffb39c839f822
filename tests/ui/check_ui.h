#ifndef HTX_TESTS_CHECK_UI_H
#define HTX_TESTS_CHECK_UI_H

#include <check.h>

#include "model/model.h"
#include "ui/state.h"

/* Shared by the UI's Check suites (tests/check_ui.c, tests/ui/check_*.c). */

/* A two-rank trace with launches, annotations, NCCL, a memcpy, two
 * iterations and a kernel whose name holds an escape sequence. */
struct model *ui_test_model(void);

/* A state over m at rows x cols, synced (lanes, layout), with the test's
 * fake analyses (a kernel table and a per-stream table). */
void ui_test_state(struct ui_state *st, struct model *m, int rows, int cols);

/* Feeds keys (a script, as in --script) through ui_refresh_key. */
unsigned ui_test_keys(struct ui_state *st, struct model *m, const char *keys);

/* Screen row y as text after composing st into a fresh grid. */
const char *ui_test_row(const struct ui_state *st, const struct model *m, int y);

/* Does any row of the composed screen contain s? */
int ui_test_screen_has(const struct ui_state *st, const struct model *m, const char *s);

Suite *ui_actions_suite(void);
Suite *ui_screen_suite(void);
Suite *ui_nav_suite(void);
Suite *ui_columns_suite(void);

#endif
