#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "app/name_fit.h"

/* Kernel names that fit a column and stay apart, on the
 * shapes real traces have: CUTLASS templates, Triton, NCCL, RCCL, DeepEP,
 * cuDNN, memcpy; and hostile ones. */

static const char *const CUTLASS_A =
    "void cutlass::device_kernel<dpsk::group_gemm::GroupGemmKernel<cutlass::bfloat16_t, 128, 256, "
    "64> >(dpsk::group_gemm::GroupGemmKernel<cutlass::bfloat16_t, 128, 256, 64>::Params)";
static const char *const CUTLASS_B =
    "void cutlass::device_kernel<dpsk::group_gemm::GroupGemmKernel<cutlass::bfloat16_t, 64, 128, "
    "64> >(dpsk::group_gemm::GroupGemmKernel<cutlass::bfloat16_t, 64, 128, 64>::Params)";
static const char *const CUTLASS_C =
    "void cutlass::device_kernel<dpsk::fp8_gemm::Fp8GemmKernel<cutlass::float_e4m3_t, 128> >("
    "dpsk::fp8_gemm::Fp8GemmKernel<cutlass::float_e4m3_t, 128>::Params)";
static const char *const NCCL =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
static const char *const RCCL =
    "void ncclKernel_AllGather_RING_LL_Sum_int8_t<(ncclFunc_t)2, signed char, FuncSum<signed "
    "char>, 0, 0, 0>(ncclDevComm*, unsigned long, ncclWork*)";
static const char *const DEEPEP =
    "void deep_ep::internode::dispatch<true, 8, 16>(int4*, float*, int*, long*, int const*)";
static const char *const CUDNN =
    "cudnn::engines_precompiled::nchwToNhwcKernel<float, float, float, false, true, "
    "(cudnnKernelDataType_t)0>(cudnn::engines_precompiled::nchw2nhwc_params_t<float>, float "
    "const*, float*)";
static const char *const TRITON = "triton_poi_fused__to_copy_add_mean_mul_pow_rsqrt_0";

static char *form(const char *name, enum name_form f)
{
    static char buf[1024];
    name_form(name, f, buf, sizeof buf);
    return buf;
}

START_TEST(forms_should_drop_return_type_then_params_then_templates)
{
    ck_assert_str_eq(form(DEEPEP, NAME_FULL), DEEPEP);
    ck_assert_str_eq(form(DEEPEP, NAME_NO_RETURN),
                     "deep_ep::internode::dispatch<true, 8, 16>(int4*, float*, int*, long*, "
                     "int const*)");
    ck_assert_str_eq(form(DEEPEP, NAME_NO_PARAMS), "deep_ep::internode::dispatch<true, 8, 16>");
    ck_assert_str_eq(form(DEEPEP, NAME_NO_TEMPLATES), "deep_ep::internode::dispatch<\u2026>");
    ck_assert_str_eq(form(NCCL, NAME_NO_PARAMS), "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    ck_assert_str_eq(form(RCCL, NAME_NO_TEMPLATES), "ncclKernel_AllGather_RING_LL_Sum_int8_t<\u2026>");
    ck_assert_str_eq(form(CUDNN, NAME_NO_RETURN), CUDNN);   // no return type
    ck_assert_str_eq(form(CUDNN, NAME_NO_TEMPLATES),
                     "cudnn::engines_precompiled::nchwToNhwcKernel<\u2026>");
    ck_assert_str_eq(form(CUTLASS_A, NAME_NO_TEMPLATES), "cutlass::device_kernel<\u2026>");
    ck_assert_str_eq(form(TRITON, NAME_NO_TEMPLATES), TRITON);
    ck_assert_str_eq(form("Memcpy HtoD (Pageable -> Device)", NAME_NO_TEMPLATES),
                     "Memcpy HtoD (Pageable -> Device)");
}
END_TEST

static void fit(const char *const *names, size_t n, size_t width, char **out)
{
    ck_assert_int_eq(names_fit(names, n, width, out), 0);
    for (size_t i = 0; i < n; i++) {
        ck_assert_ptr_nonnull(out[i]);
        ck_assert_msg(name_width(out[i]) <= width, "'%s' is wider than %zu", out[i], width);
    }
}

static void free_all(char **out, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(out[i]);
}

START_TEST(fitted_names_should_stay_apart_at_every_width)
{
    const char *names[] = {CUTLASS_A, CUTLASS_B, CUTLASS_C, NCCL, RCCL, DEEPEP, CUDNN, TRITON,
                           "Memcpy HtoD (Pageable -> Device)", "Memset (Device)"};
    size_t n = sizeof names / sizeof names[0];
    for (size_t width = 12; width <= 200; width += 4) {
        char *out[16];
        fit(names, n, width, out);
        for (size_t i = 0; i < n; i++)
            for (size_t j = i + 1; j < n; j++)
                ck_assert_msg(strcmp(out[i], out[j]) != 0, "width %zu: '%s' twice (%zu, %zu)",
                              width, out[i], i, j);
        free_all(out, n);
    }
}
END_TEST

START_TEST(a_wide_column_should_show_the_most_complete_form)
{
    const char *names[] = {DEEPEP, NCCL};
    char *out[2];
    fit(names, 2, 200, out);
    ck_assert_str_eq(out[0], form(DEEPEP, NAME_NO_RETURN));   // the return type never helps
    ck_assert_str_eq(out[1], NCCL);
    free_all(out, 2);
    fit(names, 2, 41, out);
    ck_assert_str_eq(out[0], "deep_ep::internode::dispatch<true, 8, 16>");
    ck_assert_str_eq(out[1], "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
    free_all(out, 2);
}
END_TEST

START_TEST(equal_names_should_fit_alike)
{
    const char *names[] = {CUTLASS_A, CUTLASS_A, "k"};
    char *out[3];
    fit(names, 3, 20, out);
    ck_assert_str_eq(out[0], out[1]);
    ck_assert_str_eq(out[2], "k");
    free_all(out, 3);
}
END_TEST

START_TEST(hostile_names_should_not_break_it)
{
    static char big[20000];
    memset(big, '<', sizeof big - 1);
    const char *names[] = {"((((", ")))>>>", "a<b(c", "x(", "void ", "", big,
                           "\x1b[31mred\xff\xfe<\x01>(\x7f)", "operator<<(int)", "a->b<c>()"};
    size_t n = sizeof names / sizeof names[0];
    for (size_t width = 0; width <= 64; width += 8) {
        char *out[16];
        fit(names, n, width, out);
        free_all(out, n);
    }
    char tiny[4];
    name_form(CUTLASS_A, NAME_NO_TEMPLATES, tiny, sizeof tiny);
    ck_assert_uint_le(strlen(tiny), 3);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("name_fit");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, forms_should_drop_return_type_then_params_then_templates);
    tcase_add_test(tc, fitted_names_should_stay_apart_at_every_width);
    tcase_add_test(tc, a_wide_column_should_show_the_most_complete_form);
    tcase_add_test(tc, equal_names_should_fit_alike);
    tcase_add_test(tc, hostile_names_should_not_break_it);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
