#include "config.h"

#include "gen_model.h"

#include <stddef.h>

/* Shapes: batch 4, sequence 512 (2048 tokens), hidden 1024, MLP 4096,
 * vocabulary 32000, fp32 with TF32 GEMMs on an A100. Kernel names are the
 * ones PyTorch 2.x and NCCL 2.19 print; GPU times are rough A100 numbers. */

/* ---- kernels ------------------------------------------------------------ */

#define KERN(id, nm, g0, b0, r, s) \
    static const struct gen_kernel id = {nm, {g0, 1, 1}, {b0, 1, 1}, r, s}

KERN(K_LN_FWD, "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)", 2048, 256, 32, 0);
KERN(K_GEMM_TN, "sm80_xmma_gemm_f32f32_tf32f32_f32_tn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel", 384, 128, 230, 65536);
KERN(K_GEMM_NN, "sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel", 384, 128, 230, 65536);
KERN(K_GEMM_NT, "sm80_xmma_gemm_f32f32_tf32f32_f32_nt_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor16x8x8_kernel", 256, 128, 230, 65536);
KERN(K_CUTLASS, "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)", 1000, 256, 254, 99328);
KERN(K_FLASH_FWD, "void pytorch_flash::flash_fwd_kernel<pytorch_flash::Flash_fwd_kernel_traits<64, 128, 64, 4, false, false, float, pytorch_flash::Flash_kernel_traits<64, 128, 64, 4, float> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)", 64, 128, 255, 49152);
KERN(K_FLASH_BWD, "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<pytorch_flash::Flash_bwd_kernel_traits<64, 128, 128, 8, 2, 4, 2, false, false, float, pytorch_flash::Flash_kernel_traits<64, 128, 128, 8, float> >, false, true, false, false, false, true, false, false>(pytorch_flash::Flash_bwd_params)", 64, 256, 255, 98304);
KERN(K_ADD, "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)", 2048, 128, 24, 0);
KERN(K_GELU, "void at::native::vectorized_elementwise_kernel<4, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::GeluCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", 8192, 128, 26, 0);
KERN(K_GELU_BWD, "void at::native::vectorized_elementwise_kernel<4, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(int, at::native::GeluBackwardCUDAKernelImpl(at::TensorIteratorBase&, at::native::GeluType)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float, float)#1}, at::detail::Array<char*, 3>)", 8192, 128, 30, 0);
KERN(K_DROPOUT, "void at::native::(anonymous namespace)::fused_dropout_kernel_vec<float, float, unsigned int, 1, 4, bool>(at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<bool, unsigned int>, unsigned int, float, at::PhiloxCudaState)", 864, 256, 40, 0);
KERN(K_MASKED_SCALE, "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(float, bool)#1}, at::detail::Array<char*, 3> >(int, at::native::(anonymous namespace)::masked_scale_kernel<bool, float, float>(at::Tensor&, at::Tensor const&, at::Tensor const&, float)::{lambda(float, bool)#1}, at::detail::Array<char*, 3>)", 8192, 128, 22, 0);
KERN(K_LN_BWD_IN, "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float>(float const*, float const*, float const*, float const*, float const*, float*, int)", 2048, 128, 40, 0);
KERN(K_LN_BWD_GB, "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<float, float>(long, long, float const*, float const*, float const*, float const*, float*, float*)", 32, 1024, 64, 8192);
KERN(K_SUM, "void at::native::reduce_kernel<128, 4, at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>, unsigned int, float, 4>)", 64, 512, 32, 16);
KERN(K_ACC_ADD, "void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, at::native::AUnaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2>)", 1024, 128, 24, 0);
KERN(K_EMBED, "void at::native::(anonymous namespace)::indexSelectLargeIndex<float, long, unsigned int, 2, 2, -2, true>(at::cuda::detail::TensorInfo<float, unsigned int>, at::cuda::detail::TensorInfo<float const, unsigned int>, at::cuda::detail::TensorInfo<long const, unsigned int>, int, int, unsigned int, unsigned int, long)", 8192, 128, 32, 0);
KERN(K_EMBED_BWD, "void at::native::(anonymous namespace)::embedding_backward_feature_kernel<float, float, long>(long const*, float const*, float*, int, long, int, int)", 64, 1024, 48, 12288);
KERN(K_SOFTMAX, "void at::native::(anonymous namespace)::cunn_SoftMaxForward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxForwardEpilogue>(float*, float const*, int)", 2048, 1024, 38, 0);
KERN(K_SOFTMAX_BWD, "void at::native::(anonymous namespace)::cunn_SoftMaxBackward<4, float, float, float, at::native::(anonymous namespace)::LogSoftMaxBackwardEpilogue>(float*, float const*, float const*, long)", 2048, 1024, 40, 0);
KERN(K_NLL, "void at::native::(anonymous namespace)::nll_loss_forward_reduce_cuda_kernel_2d<float, float, long>(float*, float*, float const*, long const*, float const*, bool, long, long, long, long)", 1, 32, 30, 256);
KERN(K_NLL_BWD, "void at::native::(anonymous namespace)::nll_loss_backward_reduce_cuda_kernel_2d<float, long>(float*, float const*, long const*, float const*, float const*, bool, int, int, long, long)", 1, 32, 30, 0);
KERN(K_FILL, "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)", 8192, 128, 16, 0);
KERN(K_NORM, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::LpNormFunctor<float, (at::native::(anonymous namespace)::NormType)1, float, float>, float*, int>(at::native::(anonymous namespace)::TensorListMetadata<1>, at::native::(anonymous namespace)::LpNormFunctor<float, (at::native::(anonymous namespace)::NormType)1, float, float>, float*, int)", 320, 512, 32, 4096);
KERN(K_NORM_CLEAN, "void at::native::(anonymous namespace)::lpnorm_cleanup<float, (at::native::(anonymous namespace)::NormType)1, float, float>(float const*, at::native::(anonymous namespace)::TensorListAddresses, int)", 1, 512, 32, 4096);
KERN(K_ADAM, "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*>(at::native::(anonymous namespace)::FusedOptimizerTensorListMetadata<4>, at::native::(anonymous namespace)::FusedAdamMathFunctor<float, 4, (at::native::ADAM_MODE)1, false>, double*, double, double, double, double, double, bool, float*, float*)", 320, 512, 72, 0);
KERN(K_ALLREDUCE, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)", 24, 640, 96, 87568);
KERN(K_BROADCAST, "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)", 2, 640, 96, 87568);
/* Only in the test trace (its RMSNorm on the attention input). */
KERN(K_POW, "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, at::detail::Array<char*, 2> >(int, at::native::(anonymous namespace)::pow_tensor_scalar_kernel_impl<float, float>(at::TensorIteratorBase&, float)::{lambda(float)#2}, at::detail::Array<char*, 2>)", 2048, 128, 20, 0);
KERN(K_MEAN, "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)", 2048, 512, 32, 16);
KERN(K_RSQRT, "void at::native::vectorized_elementwise_kernel<4, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(int, at::native::rsqrt_kernel_cuda(at::TensorIteratorBase&)::{lambda()#2}::operator()() const::{lambda()#2}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2>)", 16, 128, 16, 0);
KERN(K_MUL, "void at::native::vectorized_elementwise_kernel<4, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<float, float, float, at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)", 2048, 128, 24, 0);

/* ---- node constructors --------------------------------------------------- */

#define NODE(...) (&(const struct gen_node){__VA_ARGS__})
#define KIDS(...) ((const struct gen_node *const[]){__VA_ARGS__, NULL})
#define OPF(fl, nm, d, t, us, ...) \
    NODE(.kind = GN_OP, .name = nm, .dims = d, .types = t, .cpu_ns = (us)*1000, \
         .flags = (fl), .kids = KIDS(__VA_ARGS__))
#define OP(nm, d, t, us, ...) OPF(0, nm, d, t, us, __VA_ARGS__)
#define LEAFF(fl, nm, d, t, us) \
    NODE(.kind = GN_OP, .name = nm, .dims = d, .types = t, .cpu_ns = (us)*1000, .flags = (fl))
#define LEAF(nm, d, t, us) LEAFF(0, nm, d, t, us)
#define ANNOT(nm, us, ...) \
    NODE(.kind = GN_ANNOT, .name = nm, .cpu_ns = (us)*1000, .kids = KIDS(__VA_ARGS__))
#define LAUNCHF(fl, kern, gpu_us) \
    NODE(.kind = GN_LAUNCH, .name = "cudaLaunchKernel", .cpu_ns = 5000, \
         .gpu_ns = (int64_t)((gpu_us)*1000), .k = &(kern), .flags = (fl))
#define LAUNCH(kern, gpu_us) LAUNCHF(0, kern, gpu_us)
#define MEMCPY(fl, nm, nbytes, gpu_us) \
    NODE(.kind = GN_MEMCPY, .name = nm, .cpu_ns = 6000, .gpu_ns = (gpu_us)*1000, \
         .bytes = (nbytes), .flags = (fl))
#define MEMSET(nbytes, gpu_us) \
    NODE(.kind = GN_MEMSET, .name = "Memset (Device)", .cpu_ns = 5000, \
         .gpu_ns = (gpu_us)*1000, .bytes = (nbytes))
#define RUNTIME(nm, us) NODE(.kind = GN_RUNTIME, .name = nm, .cpu_ns = (us)*1000)

/* Common small ops. */
#define F1 "[\"float\"]"
#define F2 "[\"float\", \"float\"]"
#define F3 "[\"float\", \"float\", \"float\"]"
#define FSS "[\"float\", \"Scalar\", \"Scalar\"]"
#define AS_STRIDED(d) LEAF("aten::as_strided", d, "[\"float\", \"\", \"\", \"\"]", 3)
#define VIEW(d) LEAF("aten::view", d, "[\"float\", \"\"]", 3)
#define EMPTY LEAF("aten::empty", "[[], [], [], [], [], []]", "[\"\", \"Scalar\", \"Scalar\", \"Scalar\", \"Scalar\", \"\"]", 4)
#define TRANSPOSE(d) \
    OP("aten::t", d, F1, 3, OP("aten::transpose", d, FSS, 3, AS_STRIDED(d)))

/* y = x W^T + b over 2048 tokens: aten::linear -> aten::t + aten::addmm. */
#define LINEAR(fl, w, inner, gpu_us)                                                   \
    OPF(fl, "aten::linear", "[[4, 512, " inner "], " w ", []]", F3, 6, TRANSPOSE(w),   \
        OP("aten::addmm", "[[], [2048, " inner "], [], [], []]",                       \
           "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]", 8,             \
           LAUNCHF(fl, K_GEMM_TN, gpu_us)),                                            \
        VIEW("[[2048, " inner "], []]"))

#define LAYER_NORM                                                                     \
    OP("aten::layer_norm", "[[4, 512, 1024], [], [1024], [1024], [], []]",             \
       "[\"float\", \"\", \"float\", \"float\", \"Scalar\", \"Scalar\"]", 5,           \
       OP("aten::native_layer_norm", "[[4, 512, 1024], [], [1024], [1024], []]",       \
          "[\"float\", \"\", \"float\", \"float\", \"Scalar\"]", 9, EMPTY, EMPTY,      \
          LAUNCH(K_LN_FWD, 9)))

#define ADD_RESIDUAL                                                                   \
    OP("aten::add", "[[4, 512, 1024], [4, 512, 1024], []]", "[\"float\", \"float\", \"Scalar\"]", \
       8, LAUNCH(K_ADD, 11))

/* ---- forward -------------------------------------------------------------- */

/* The test trace normalises the attention input with an RMSNorm written out
 * in aten ops: every op and kernel in it is "added". */
#define RMS_NORM_TEST_ONLY                                                             \
    OPF(GF_TEST_ONLY, "aten::rms_norm", "[[4, 512, 1024], [], [1024], []]",            \
        "[\"float\", \"\", \"float\", \"Scalar\"]", 6,                                 \
        OP("aten::pow", "[[4, 512, 1024], []]", "[\"float\", \"Scalar\"]", 7, LAUNCH(K_POW, 9)), \
        OP("aten::mean", "[[4, 512, 1024], [], [], []]", "[\"float\", \"\", \"Scalar\", \"\"]", 9, \
           LAUNCH(K_MEAN, 8)),                                                         \
        OP("aten::add", "[[4, 512, 1], []]", "[\"float\", \"Scalar\"]", 6, LAUNCH(K_ADD, 3)), \
        OP("aten::rsqrt", "[[4, 512, 1]]", F1, 6, LAUNCH(K_RSQRT, 3)),                 \
        OP("aten::mul", "[[4, 512, 1024], [4, 512, 1]]", F2, 7, LAUNCH(K_MUL, 11)),    \
        OP("aten::mul", "[[4, 512, 1024], [1024]]", F2, 7, LAUNCH(K_MUL, 11)))

static const struct gen_node *const FWD_ATTENTION =
    ANNOT("attention", 4, LAYER_NORM, RMS_NORM_TEST_ONLY,
          LINEAR(0, "[3072, 1024]", "1024", 98),
          OP("aten::scaled_dot_product_attention",
             "[[4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512, 64], [], [], [], []]",
             "[\"float\", \"float\", \"float\", \"\", \"Scalar\", \"Scalar\", \"\"]", 10,
             OPF(GF_SEQ, "aten::_scaled_dot_product_flash_attention",
                 "[[4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512, 64], [], [], [], []]",
                 "[\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\", \"Scalar\", \"\"]", 14,
                 EMPTY, EMPTY, LAUNCHF(GF_TEST_SLOWER, K_FLASH_FWD, 64))),
          LINEAR(0, "[1024, 1024]", "1024", 34), ADD_RESIDUAL);

static const struct gen_node *const FWD_MLP =
    ANNOT("mlp", 4, LAYER_NORM, LINEAR(GF_TEST_SLOWER, "[4096, 1024]", "1024", 128),
          OP("aten::gelu", "[[4, 512, 4096], []]", "[\"float\", \"\"]", 8, LAUNCH(K_GELU, 21)),
          OPF(GF_CONTROL_ONLY, "aten::dropout", "[[4, 512, 4096], [], []]",
              "[\"float\", \"Scalar\", \"Scalar\"]", 5,
              OP("aten::native_dropout", "[[4, 512, 4096], [], []]",
                 "[\"float\", \"Scalar\", \"Scalar\"]", 9, EMPTY, EMPTY,
                 LAUNCH(K_DROPOUT, 24))),
          LINEAR(0, "[1024, 4096]", "4096", 127), ADD_RESIDUAL);

static const struct gen_node *const DATA_LOADER =
    ANNOT("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 60,
          OP("aten::stack", "[[], []]", "[\"TensorList\", \"Scalar\"]", 40,
             OP("aten::cat", "[[], []]", "[\"TensorList\", \"Scalar\"]", 300, EMPTY)),
          OP("aten::stack", "[[], []]", "[\"TensorList\", \"Scalar\"]", 40,
             OP("aten::cat", "[[], []]", "[\"TensorList\", \"Scalar\"]", 300, EMPTY)));

#define TO_DEVICE(fl, copy_name, gpu_us)                                                \
    OP("aten::to", "[[4, 512], [], [], [], [], [], [], []]",                          \
       "[\"long\", \"Scalar\", \"Scalar\", \"\", \"\", \"Scalar\", \"Scalar\", \"\"]", 5, \
       OP("aten::_to_copy", "[[4, 512], [], [], [], [], [], []]",                     \
          "[\"long\", \"Scalar\", \"Scalar\", \"\", \"\", \"Scalar\", \"\"]", 7,        \
          LEAF("aten::empty_strided", "[[], [], [], [], [], []]",                      \
               "[\"\", \"\", \"Scalar\", \"Scalar\", \"\", \"Scalar\"]", 5),           \
          OP("aten::copy_", "[[4, 512], [4, 512], []]", "[\"long\", \"long\", \"Scalar\"]", 6, \
             MEMCPY(fl, copy_name, 16384, gpu_us))))

static const struct gen_node *const INPUT_COPY =
    ANNOT("## to device ##", 3,
          TO_DEVICE(GF_BLOCKING, "Memcpy HtoD (Pageable -> Device)", 9),
          TO_DEVICE(GF_BLOCKING, "Memcpy HtoD (Pageable -> Device)", 9));

static const struct gen_node *const PREFETCH =
    TO_DEVICE(GF_COPY_STREAM, "Memcpy HtoD (Pinned -> Device)", 4);

#define ZERO_ONE(fl)                                                                   \
    OPF(fl, "aten::zero_", "[[50331648]]", F1, 4,                                      \
        OP("aten::fill_", "[[50331648], []]", "[\"float\", \"Scalar\"]", 5,            \
           MEMSET(100663296, 70)))

/* The control trace zeroes every bucket twice (a redundant call the test
 * removed): aten::zero_, aten::fill_ and the memset "decrease" in the test. */
static const struct gen_node *const ZERO_GRAD =
    ANNOT("Optimizer.zero_grad#AdamW.zero_grad", 6, ZERO_ONE(0), ZERO_ONE(GF_CONTROL_ONLY));

static const struct gen_node *const BROADCAST =
    OP("c10d::broadcast_", "[[], [], [], [], []]", "[\"TensorList\", \"\", \"Scalar\", \"Scalar\", \"Scalar\"]", 20,
       OP("record_param_comms", "[[], [], [], [], [], [], [], [], [], [], [], [], [], []]",
          "[\"TensorList\", \"Int\", \"String\", \"Int\", \"Int\", \"Int\", \"Int\", \"String\", \"Int\", \"GenericList\", \"GenericList\", \"Int\", \"String\", \"Int\"]", 12,
          NODE(.kind = GN_ANNOT, .name = "nccl:broadcast", .cpu_ns = 6000,
               .kids = KIDS(NODE(.kind = GN_NCCL, .name = "cudaLaunchKernel", .cpu_ns = 9000,
                                 .gpu_ns = 30000, .bytes = 65536, .k = &K_BROADCAST)))));

static const struct gen_node *const EMBEDDING =
    OP("aten::embedding", "[[32000, 1024], [4, 512], [], [], []]",
       "[\"float\", \"long\", \"Scalar\", \"Scalar\", \"Scalar\"]", 6,
       OP("aten::reshape", "[[4, 512], []]", "[\"long\", \"\"]", 3, VIEW("[[4, 512], []]")),
       OP("aten::index_select", "[[32000, 1024], [], [2048]]", "[\"float\", \"Scalar\", \"long\"]", 9,
          EMPTY, LAUNCH(K_EMBED, 12)),
       VIEW("[[2048, 1024], []]"));

static const struct gen_node *const HEAD_LOSS =
    ANNOT("## loss ##", 4, LAYER_NORM,
          OP("aten::linear", "[[4, 512, 1024], [32000, 1024], []]", F2, 6,
             TRANSPOSE("[[32000, 1024]]"),
             OP("aten::matmul", "[[4, 512, 1024], [1024, 32000]]", F2, 6,
                OP("aten::mm", "[[2048, 1024], [1024, 32000]]", F2, 8, LAUNCH(K_CUTLASS, 880)))),
          OP("aten::cross_entropy_loss", "[[2048, 32000], [2048], [], [], [], []]",
             "[\"float\", \"long\", \"\", \"Scalar\", \"Scalar\", \"Scalar\"]", 6,
             OP("aten::log_softmax", "[[2048, 32000], [], []]", "[\"float\", \"Scalar\", \"\"]", 4,
                OP("aten::_log_softmax", "[[2048, 32000], [], []]", "[\"float\", \"Scalar\", \"Scalar\"]", 8,
                   LAUNCH(K_SOFTMAX, 176))),
             OP("aten::nll_loss_nd", "[[2048, 32000], [2048], [], [], []]",
                "[\"float\", \"long\", \"\", \"Scalar\", \"Scalar\"]", 4,
                OP("aten::nll_loss_forward", "[[2048, 32000], [2048], [], [], []]",
                   "[\"float\", \"long\", \"\", \"Scalar\", \"Scalar\"]", 9,
                   LAUNCH(K_NLL, 14)))));

/* ---- backward ------------------------------------------------------------- */

#define EVAL(fn, us, ...) \
    OP("autograd::engine::evaluate_function: " fn, NULL, NULL, 4, OPF(GF_SEQ, fn, NULL, NULL, us, __VA_ARGS__))
#define MM(d, kern, gpu_us) OP("aten::mm", d, F2, 8, LAUNCH(kern, gpu_us))

#define ADDMM_BWD(dx, dw, gpu_us)                                                      \
    EVAL("AddmmBackward0", 6, TRANSPOSE(dw), MM(dx, K_GEMM_NN, gpu_us), TRANSPOSE(dx), \
         MM(dw, K_GEMM_NT, gpu_us),                                                    \
         OP("aten::sum", "[[2048, 1024], [], [], []]", "[\"float\", \"\", \"Scalar\", \"\"]", 8, \
            LAUNCH(K_SUM, 9)),                                                         \
         VIEW("[[1024], []]"))

#define LAYER_NORM_BWD                                                                 \
    EVAL("NativeLayerNormBackward0", 5,                                                \
         OP("aten::native_layer_norm_backward",                                        \
            "[[4, 512, 1024], [4, 512, 1024], [], [4, 512, 1], [4, 512, 1], [1024], [1024], []]", \
            "[\"float\", \"float\", \"\", \"float\", \"float\", \"float\", \"float\", \"\"]", 12, \
            EMPTY, EMPTY, EMPTY, LAUNCH(K_LN_BWD_IN, 17), LAUNCH(K_LN_BWD_GB, 12)))

#define ADD_BWD LEAF("autograd::engine::evaluate_function: AddBackward0", NULL, NULL, 5)

static const struct gen_node *const BWD_MLP =
    ANNOT("mlp", 4, ADD_BWD, ADDMM_BWD("[[2048, 1024], [1024, 4096]]", "[[1024, 4096]]", 127),
          OPF(GF_CONTROL_ONLY, "autograd::engine::evaluate_function: NativeDropoutBackward0", NULL, NULL, 4,
              OPF(GF_SEQ, "NativeDropoutBackward0", NULL, NULL, 5,
                  OP("aten::native_dropout_backward", "[[4, 512, 4096], [4, 512, 4096], []]",
                     "[\"float\", \"bool\", \"Scalar\"]", 8, LAUNCH(K_MASKED_SCALE, 22)))),
          EVAL("GeluBackward0", 5,
               OP("aten::gelu_backward", "[[4, 512, 4096], [4, 512, 4096], []]",
                  "[\"float\", \"float\", \"\"]", 8, LAUNCH(K_GELU_BWD, 27))),
          ADDMM_BWD("[[2048, 4096], [4096, 1024]]", "[[4096, 1024]]", 128), LAYER_NORM_BWD);

static const struct gen_node *const BWD_ATTENTION =
    ANNOT("attention", 4, ADD_BWD, ADDMM_BWD("[[2048, 1024], [1024, 1024]]", "[[1024, 1024]]", 34),
          EVAL("ScaledDotProductFlashAttentionBackward0", 6,
               OP("aten::_scaled_dot_product_flash_attention_backward",
                  "[[4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512, 64], [4, 16, 512], [], [], [], [], [], [], []]",
                  NULL, 16, EMPTY, EMPTY, EMPTY, LAUNCH(K_FLASH_BWD, 158))),
          ADDMM_BWD("[[2048, 3072], [3072, 1024]]", "[[3072, 1024]]", 98), LAYER_NORM_BWD);

static const struct gen_node *const BWD_LOSS =
    ANNOT("## loss backward ##", 3,
          EVAL("NllLossBackward0", 5,
               OP("aten::nll_loss_backward", "[[], [2048, 32000], [2048], [], [], [], []]", NULL, 8,
                  OP("aten::zero_", "[[2048, 32000]]", F1, 4,
                     OP("aten::fill_", "[[2048, 32000], []]", "[\"float\", \"Scalar\"]", 5,
                        LAUNCH(K_FILL, 95))),
                  LAUNCH(K_NLL_BWD, 8))),
          EVAL("LogSoftmaxBackward0", 5,
               OP("aten::_log_softmax_backward_data", "[[2048, 32000], [2048, 32000], [], []]",
                  NULL, 8, LAUNCH(K_SOFTMAX_BWD, 190))),
          EVAL("MmBackward0", 6, TRANSPOSE("[[1024, 32000]]"),
               MM("[[2048, 32000], [32000, 1024]]", K_CUTLASS, 900),
               TRANSPOSE("[[2048, 1024]]"), MM("[[1024, 2048], [2048, 32000]]", K_GEMM_NT, 910)));

static const struct gen_node *const BWD_ACCUMULATE =
    OP("autograd::engine::evaluate_function: torch::autograd::AccumulateGrad", NULL, NULL, 5,
       OP("torch::autograd::AccumulateGrad", NULL, NULL, 4,
          OP("aten::detach", "[[1024, 1024]]", F1, 3, LEAF("detach", "[[1024, 1024]]", F1, 2))),
       OP("torch::distributed::reducer::mul_out", NULL, NULL, 5,
          OP("aten::mul", "[[1024, 1024], []]", "[\"float\", \"Scalar\"]", 7, LAUNCH(K_ACC_ADD, 6))));

static const struct gen_node *const BUCKET_COPY =
    OP("aten::copy_", "[[12582912], [12582912], []]", "[\"float\", \"float\", \"Scalar\"]", 6,
       MEMCPY(0, "Memcpy DtoD (Device -> Device)", 50331648, 40));

static const struct gen_node *const ALLREDUCE =
    OP("c10d::allreduce_", "[[], [], [], [], []]", "[\"TensorList\", \"\", \"\", \"\", \"Int\"]", 22,
       OP("record_param_comms", "[[], [], [], [], [], [], [], [], [], [], [], [], [], []]",
          "[\"TensorList\", \"Int\", \"String\", \"Int\", \"Int\", \"Int\", \"Int\", \"String\", \"Int\", \"GenericList\", \"GenericList\", \"Int\", \"String\", \"Int\"]", 14,
          NODE(.kind = GN_ANNOT, .name = "nccl:all_reduce", .cpu_ns = 8000,
               .kids = KIDS(RUNTIME("cudaStreamIsCapturing", 1),
                            NODE(.kind = GN_NCCL, .name = "cudaLaunchKernelExC", .cpu_ns = 9000,
                                 .gpu_ns = 420000, .bytes = 50331648, .k = &K_ALLREDUCE)))));

static const struct gen_node *const BWD_EMBEDDING =
    EVAL("EmbeddingBackward0", 5,
         OP("aten::embedding_backward", "[[4, 512, 1024], [4, 512], [], [], [], []]", NULL, 6,
            OP("aten::embedding_dense_backward", "[[4, 512, 1024], [4, 512], [], [], []]", NULL, 9,
               OP("aten::zeros", "[[], [], [], [], []]", NULL, 4,
                  OP("aten::zero_", "[[32000, 1024]]", F1, 4,
                     OP("aten::fill_", "[[32000, 1024], []]", "[\"float\", \"Scalar\"]", 5,
                        MEMSET(131072000, 92)))),
               LAUNCH(K_EMBED_BWD, 41))));

/* ---- optimizer and loss.item() --------------------------------------------- */

static const struct gen_node *const CLIP_GRAD =
    ANNOT("clip_grad_norm_", 20,
          OP("aten::_foreach_norm", "[[], []]", "[\"TensorList\", \"Scalar\"]", 30,
             LAUNCH(K_NORM, 210), LAUNCH(K_NORM_CLEAN, 4)),
          OP("aten::stack", "[[], []]", "[\"TensorList\", \"Scalar\"]", 20,
             OP("aten::cat", "[[], []]", "[\"TensorList\", \"Scalar\"]", 12, LAUNCH(K_ADD, 3))));

static const struct gen_node *const ADAM_CHUNK =
    OP("aten::_fused_adamw_", "[[], [], [], [], [], [], [], [], [], [], [], [], [], [], []]",
       NULL, 40, LAUNCH(K_ADAM, 520));

static const struct gen_node *const LOSS_ITEM =
    OP("aten::item", "[[]]", F1, 4,
       OP("aten::_local_scalar_dense", "[[]]", F1, 6,
          MEMCPY(GF_BLOCKING, "Memcpy DtoH (Device -> Pageable)", 4, 2),
          NODE(.kind = GN_SYNC, .name = "cudaStreamSynchronize", .cpu_ns = 3000)));

const struct gen_catalog gen_catalog = {
    .data_loader = DATA_LOADER,
    .input_copy = INPUT_COPY,
    .prefetch = PREFETCH,
    .zero_grad = ZERO_GRAD,
    .broadcast = BROADCAST,
    .embedding = EMBEDDING,
    .fwd_attention = FWD_ATTENTION,
    .fwd_mlp = FWD_MLP,
    .head_loss = HEAD_LOSS,
    .bwd_loss = BWD_LOSS,
    .bwd_mlp = BWD_MLP,
    .bwd_attention = BWD_ATTENTION,
    .bwd_accumulate = BWD_ACCUMULATE,
    .bucket_copy = BUCKET_COPY,
    .allreduce = ALLREDUCE,
    .bwd_embedding = BWD_EMBEDDING,
    .clip_grad = CLIP_GRAD,
    .adam_chunk = ADAM_CHUNK,
    .loss_item = LOSS_ITEM,
};

const char *gen_model_describe_pair(void)
{
    return "control/test differences (same seed, same shape otherwise):\n"
           "  deleted in test:   aten::dropout, aten::native_dropout, fused_dropout_kernel_vec,\n"
           "                     NativeDropoutBackward0 and its masked_scale kernel\n"
           "  added in test:     aten::rms_norm, aten::pow, aten::mean, aten::rsqrt and their\n"
           "                     kernels (an RMSNorm on the attention input)\n"
           "  increased in test: aten::add, aten::mul (inside that RMSNorm)\n"
           "  decreased in test: aten::zero_, aten::fill_, cudaMemsetAsync, Memset (Device)\n"
           "                     (zero_grad no longer zeroes each bucket twice), aten::empty\n"
           "  slower in test:    flash attention forward and the MLP up-projection GEMM (x1.3)\n";
}
