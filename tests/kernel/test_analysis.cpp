// The shared IR analyses (analysis.hpp): common subexpressions, needed nodes, use counts, the
// axes a node depends on, reduce identities and combine ops, the bytes a view needs.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "kernel/analysis.hpp"
#include "kernel_test_util.hpp"

using namespace zyx;
using namespace zyx::kernel;

namespace {
uint64_t bit(size_t d) { return uint64_t(1) << d; }
}  // namespace

TEST(Analysis, CommonSubexpressionsMergeDuplicatesAndKeepDistinctConstants) {
    Kernel k;
    k.shape = {8};
    int in = k.add_input(DType::f32, View::contiguous({8}));
    int x1 = k.load(in), x2 = k.load(in);
    int one = k.constant(DType::f32, 1.0), one_again = k.constant(DType::f32, 1.0);
    int two = k.constant(DType::f32, 2.0), one_f64 = k.constant(DType::f64, 1.0);
    int a1 = k.binary(Op::add, x1, one), a2 = k.binary(Op::add, x2, one_again);
    int b = k.binary(Op::mul, a2, two);
    k.add_output(DType::f32, View::contiguous({8}), a2);
    k.add_output(DType::f32, View::contiguous({8}), b);
    k.add_output(DType::f64, View::contiguous({8}), one_f64);

    Kernel m = merge_common_subexpressions(k);
    ASSERT_EQ(m.nodes.size(), k.nodes.size()) << "nodes stay in place";
    EXPECT_EQ(m.outputs[0].node, a1) << "the output follows its node to the first identical one";
    EXPECT_EQ(m.nodes[size_t(b)].src[0], a1);
    EXPECT_EQ(m.nodes[size_t(b)].src[1], two) << "1.0 and 2.0 are different constants";
    EXPECT_EQ(m.nodes[size_t(a2)].src[0], x1);
    EXPECT_EQ(m.nodes[size_t(a2)].src[1], one);
    EXPECT_EQ(m.outputs[2].node, one_f64) << "1.0 in f64 is not 1.0 in f32";
    std::vector<bool> needed = needed_nodes(m);
    EXPECT_FALSE(needed[size_t(x2)]);
    EXPECT_FALSE(needed[size_t(one_again)]);
    EXPECT_FALSE(needed[size_t(a2)]);
    EXPECT_TRUE(needed[size_t(two)]);
    EXPECT_NO_THROW(validate(m));
}

TEST(Analysis, NeededNodesAndUseCounts) {
    Kernel k;
    k.shape = {4, 6};
    k.reduce_axes = 1;
    int in = k.add_input(DType::f32, View::contiguous({4, 6}));
    int x = k.load(in);
    int sq = k.binary(Op::mul, x, x);
    int dead = k.unary(Op::exp, x);
    int sum = k.reduce(Op::reduce_sum, sq);
    int r = k.unary(Op::relu, sum);
    k.add_output(DType::f32, View::contiguous({4}), r);
    k.add_output(DType::f32, View::contiguous({4}), sum);

    std::vector<bool> needed = needed_nodes(k);
    EXPECT_TRUE(needed[size_t(x)]) << "reached through the reduce's operand";
    EXPECT_TRUE(needed[size_t(sq)]);
    EXPECT_FALSE(needed[size_t(dead)]);
    EXPECT_TRUE(needed[size_t(r)]);

    std::vector<uint32_t> uses = use_counts(k);
    EXPECT_EQ(uses[size_t(x)], 2u) << "mul(x, x) uses x twice; the dead exp does not count";
    EXPECT_EQ(uses[size_t(sq)], 1u);
    EXPECT_EQ(uses[size_t(sum)], 2u) << "read by relu and stored by an output";
    EXPECT_EQ(uses[size_t(r)], 1u) << "stored by an output";
    EXPECT_EQ(uses[size_t(dead)], 0u);
}

TEST(Analysis, NodeAxesOfBroadcastLoadIndexAndReduce) {
    // C[m, n] = sum_k A[m, k] * B[k, n] + bias[n] + n, index space [M, N, K].
    const int64_t M = 3, N = 4, K = 5;
    Kernel k;
    k.shape = {M, N, K};
    k.reduce_axes = 1;
    int a = k.add_input(DType::f32, View::contiguous({M, K}).reshape({M, 1, K}).expand({M, N, K}));
    int b = k.add_input(DType::f32, View::contiguous({K, N}).permute({1, 0}).reshape({1, N, K}).expand({M, N, K}));
    int bias = k.add_input(DType::f32, View::contiguous({1, N}).expand({M, N}));
    int la = k.load(a), lb = k.load(b), lbias = k.load(bias);
    int sum = k.reduce(Op::reduce_sum, k.binary(Op::mul, la, lb));
    int n_index = k.index(1, DType::i32), k_index = k.index(2, DType::i32);
    int y = k.binary(Op::add, k.binary(Op::add, sum, lbias), k.cast(n_index, DType::f32));
    k.add_output(DType::f32, View::contiguous({M, N}), y);
    ASSERT_NO_THROW(validate(k)) << kernel_string(k);

    std::vector<uint64_t> axes = node_axes(k);
    EXPECT_EQ(axes[size_t(la)], bit(0) | bit(2)) << "A is broadcast along n (stride 0)";
    EXPECT_EQ(axes[size_t(lb)], bit(1) | bit(2)) << "B is broadcast along m";
    EXPECT_EQ(axes[size_t(lbias)], bit(1)) << "the bias is broadcast along m";
    EXPECT_EQ(axes[size_t(sum)], bit(0) | bit(1)) << "a reduce depends on global axes only";
    EXPECT_EQ(axes[size_t(n_index)], bit(1));
    EXPECT_EQ(axes[size_t(k_index)], bit(2));
    EXPECT_EQ(axes[size_t(y)], bit(0) | bit(1));
}

TEST(Analysis, NodeAxesOfAReduceVaryingOnlyAlongTheReduceAxis) {
    Kernel k;
    k.shape = {3, 5};
    k.reduce_axes = 1;
    int v = k.add_input(DType::f32, View::contiguous({1, 5}).expand({3, 5}));
    int s = k.reduce(Op::reduce_max, k.load(v));
    k.add_output(DType::f32, View::contiguous({3}), s);
    std::vector<uint64_t> axes = node_axes(k);
    EXPECT_EQ(axes[size_t(s) - 1], bit(1));
    EXPECT_EQ(axes[size_t(s)], 0u) << "the same value at every global index";
}

TEST(Analysis, ViewVaryingAxesOfMaskedStackedAndSizeOneAxes) {
    // Axis 1 has stride 0 but padding makes it matter: [4,1] broadcast to [4,3], padded by 1 in front.
    View padded = View::contiguous({4, 1}).expand({4, 3}).pad({0, 1}, {0, 0});
    ASSERT_EQ(padded.layers.back().strides[1], 0);
    ASSERT_TRUE(padded.layers.back().has_mask());
    EXPECT_EQ(view_varying_axes(padded), bit(0) | bit(1)) << view_string(padded);
    EXPECT_EQ(view_varying_axes(View::contiguous({4, 1}).expand({4, 3})), bit(0));

    // A stacked view (merge of permuted axes) broadcast along a new axis.
    View stacked = View::contiguous({2, 3}).permute({1, 0}).reshape({6}).reshape({6, 1}).expand({6, 4});
    ASSERT_GT(stacked.layers.size(), 1u) << view_string(stacked);
    EXPECT_EQ(view_varying_axes(stacked), bit(0)) << view_string(stacked);

    // Size-1 axes never count, whatever their stride.
    EXPECT_EQ(view_varying_axes(View::contiguous({1, 5, 1})), bit(1));

    // A load of the padded view in a kernel: node_axes has the masked axis too.
    Kernel k;
    k.shape = {4, 4};
    int x = k.load(k.add_input(DType::f32, padded));
    k.add_output(DType::f32, View::contiguous({4, 4}), x);
    EXPECT_EQ(node_axes(k)[size_t(x)], bit(0) | bit(1));
}

TEST(Analysis, ReduceIdentitiesAndCombineOps) {
    EXPECT_EQ(reduce_combine_op(Op::reduce_sum), Op::add);
    EXPECT_EQ(reduce_combine_op(Op::reduce_prod), Op::mul);
    EXPECT_EQ(reduce_combine_op(Op::reduce_max), Op::max);
    EXPECT_EQ(reduce_combine_op(Op::reduce_min), Op::min);
    EXPECT_THROW(reduce_combine_op(Op::add), Error);

    EXPECT_EQ(reduce_identity_bits(Op::reduce_sum, DType::f32), 0u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_prod, DType::f32), 0x3f800000u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::f32), 0xff800000u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_min, DType::f32), 0x7f800000u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::f16), 0xfc00u) << "a 16-bit float's own bits";
    EXPECT_EQ(reduce_identity_bits(Op::reduce_sum, DType::i8), 0u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_prod, DType::i8), 1u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::i8), 0x80u) << "-128";
    EXPECT_EQ(reduce_identity_bits(Op::reduce_min, DType::i8), 0x7fu) << "127";
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::i64), 0x8000000000000000u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::u16), 0u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_min, DType::u16), 0xffffu);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_max, DType::bool_), 0u);
    EXPECT_EQ(reduce_identity_bits(Op::reduce_min, DType::bool_), 1u);
    EXPECT_THROW(reduce_identity_bits(Op::max, DType::f32), Error);
}

// An empty reduction stores the identity: the interpreter and reduce_identity_bits agree.
TEST(Analysis, EmptyReductionInTheInterpreterGivesTheIdentity) {
    const DType dtypes[] = {DType::f64, DType::f32, DType::f16, DType::bf16, DType::i8,  DType::i16,  DType::i32,
                            DType::i64, DType::u8,  DType::u16, DType::u32,  DType::u64, DType::bool_};
    const Op reduces[] = {Op::reduce_sum, Op::reduce_prod, Op::reduce_max, Op::reduce_min};
    for (DType t : dtypes)
        for (Op op : reduces) {
            if (!op_accepts(op, t)) continue;
            Kernel k;
            k.shape = {2, 0};
            k.reduce_axes = 1;
            int x = k.load(k.add_input(t, View::contiguous({2, 0})));
            k.add_output(t, View::contiguous({2}), k.reduce(op, x));
            std::vector<uint8_t> in(1), out(2 * dtype_size(t) + 1, 0xab);
            BufferRef buffers[] = {{in.data(), 0}, {out.data(), out.size()}};
            interpret(k, buffers, {});
            std::vector<uint64_t> got = test::unpack(t, out, 2);
            uint64_t want = reduce_identity_bits(op, t);
            EXPECT_EQ(got[0], want) << op_name(op) << " " << dtype_name(t);
            EXPECT_EQ(got[1], want) << op_name(op) << " " << dtype_name(t);
        }
}

TEST(Analysis, ViewRequiredBytes) {
    EXPECT_EQ(view_required_bytes(View::contiguous({4, 3}), DType::f32, "x"), 48u);
    EXPECT_EQ(view_required_bytes(View::contiguous({4, 3}).shrink({1, 0}, {2, 3}), DType::u16, "x"), 12u);
    EXPECT_EQ(view_required_bytes(View::contiguous({4, 0}), DType::f32, "x"), 0u);
    View below = View::contiguous({4});
    below.layers[0].offset = -1;
    try {
        view_required_bytes(below, DType::f32, "input 7");
        ADD_FAILURE() << "a view reaching element -1 was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
        EXPECT_NE(e.message().find("input 7"), std::string::npos) << e.message();
    }
}
