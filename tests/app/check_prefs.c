/* cli/prefs.c: the config file, its hostile lines, and flags winning. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "app/prefs.h"

static int apply(struct htx_options *o, const char *text, size_t len, struct err *e)
{
    /* the options keep pointers into the text: a copy that outlives o */
    char *copy = malloc(len + 1);
    ck_assert_ptr_nonnull(copy);
    memcpy(copy, text, len);
    copy[len] = '\0';
    free(o->config_text);
    o->config_text = copy;
    return htx_config_apply(o, "cfg", copy, len, e);
}

START_TEST(config_should_set_options_and_flags_should_win)
{
    struct htx_options o;
    struct err e = {0, ""};
    htx_options_init(&o);
    const char *text = "# preferences\n\n  comm-patterns = myA2A,ep_  \r\n"
                       "memory-patterns=copy_\nsort = delta\ncolor = no\nmouse = yes\n";
    ck_assert_int_eq(apply(&o, text, strlen(text), &e), 0);
    ck_assert_str_eq(o.comm_patterns, "myA2A,ep_");
    ck_assert_str_eq(o.memory_patterns, "copy_");
    ck_assert(o.diff_sort_delta);
    ck_assert(o.no_color);
    ck_assert(!o.no_mouse);
    char *argv[] = {"htx", "diff", "--report", "--sort=name", "--comm-patterns=nccl_x", "a", "b",
                    NULL};
    ck_assert_int_eq(htx_options_parse(&o, 7, argv, NULL, &e), 0);
    ck_assert(!o.diff_sort_delta);
    ck_assert_str_eq(o.comm_patterns, "nccl_x");
    ck_assert_str_eq(o.memory_patterns, "copy_");
    htx_options_fini(&o);
}
END_TEST

static void expect_bad(const char *text, size_t len, const char *want)
{
    struct htx_options o;
    struct err e = {0, ""};
    htx_options_init(&o);
    ck_assert_int_eq(apply(&o, text, len, &e), ERR_USAGE);
    if (!strstr(e.msg, want))
        ck_abort_msg("message '%s' lacks '%s'", e.msg, want);
    htx_options_fini(&o);
}

START_TEST(config_should_name_file_and_line_of_hostile_lines)
{
    expect_bad("color = no\nbogus\n", 17, "cfg:2: expected 'key = value'");
    expect_bad("\n\nfrobnicate = 1\n", 17, "cfg:3: unknown key 'frobnicate'");
    expect_bad(" = 3\n", 5, "cfg:1: expected 'key = value'");
    expect_bad("color = perhaps\n", 16, "cfg:1: color: bad value 'perhaps'");
    expect_bad("sort = size\n", 12, "cfg:1: --sort: bad value 'size'");
    expect_bad("comm-patterns =\n", 16, "cfg:1: --comm-patterns");
    expect_bad("color = no\0mouse = no\n", 22, "cfg: a NUL byte");
    size_t n = HTX_CONFIG_MAX_LINE + 20;
    char *big = malloc(n + 1);
    ck_assert_ptr_nonnull(big);
    memcpy(big, "sort = name\ncomm-patterns = ", 28);
    memset(big + 28, 'a', n - 28);
    big[n] = '\0';
    expect_bad(big, n, "cfg:2: line longer than 1024 bytes");
    free(big);
}
END_TEST

START_TEST(config_path_should_follow_xdg_then_home)
{
    char buf[256];
    setenv("XDG_CONFIG_HOME", "/x/cfg", 1);
    setenv("HOME", "/home/u", 1);
    ck_assert_str_eq(htx_config_path(buf, sizeof buf), "/x/cfg/htx/config");
    setenv("XDG_CONFIG_HOME", "relative", 1);
    ck_assert_str_eq(htx_config_path(buf, sizeof buf), "/home/u/.config/htx/config");
    unsetenv("XDG_CONFIG_HOME");
    ck_assert_str_eq(htx_config_path(buf, sizeof buf), "/home/u/.config/htx/config");
    ck_assert_ptr_null(htx_config_path(buf, 8));
    unsetenv("HOME");
    ck_assert_ptr_null(htx_config_path(buf, sizeof buf));
    /* a missing file is no error */
    struct htx_options o;
    struct err e = {0, ""};
    htx_options_init(&o);
    ck_assert_int_eq(htx_config_load(&o, "/nonexistent/htx/config", &e), 0);
    htx_options_fini(&o);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("prefs");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, config_should_set_options_and_flags_should_win);
    tcase_add_test(tc, config_should_name_file_and_line_of_hostile_lines);
    tcase_add_test(tc, config_path_should_follow_xdg_then_home);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
