// The Tenstorrent code generator's planning decisions (src/backend/tenstorrent/codegen/plan.hpp)
// on hand-built kernels, without a device: which skeleton, how each input is read (tile, a
// broadcast, transposed, gathered), the tile dimensions of reductions, the work split, and the
// reasons a kernel is refused. Whether the generated programs compute the right values is tested
// on the emulated chip through the tensor API (test_tensor_ops' tt:0 column, test_tt_kernels).
#include <gtest/gtest.h>

#include "backend/tenstorrent/codegen/emit.hpp"
#include "backend/tenstorrent/codegen/plan.hpp"

namespace {

using namespace zyx::kernel;
using zyx::DType;
using zyx::tt::codegen::Dim;
using zyx::tt::codegen::Plan;
using zyx::tt::codegen::Read;
using zyx::tt::codegen::Skeleton;

const zyx::tt::codegen::Target kN150{{8, 8}, 1499136, 32, 32};

Storage tiled(int64_t rows, int64_t cols) { return Storage{true, rows, cols}; }

Plan plan(const Kernel& k) {
    validate(k);
    std::string why;
    auto p = zyx::tt::codegen::make_plan(k, kN150, &why);
    EXPECT_TRUE(p) << why;
    return p ? *p : Plan{};
}

std::string refusal(const Kernel& k) {
    validate(k);
    std::string why;
    auto p = zyx::tt::codegen::make_plan(k, kN150, &why);
    EXPECT_FALSE(p);
    return why;
}

// out[H, W] = x + y with y read through `yv` from a buffer of `ys` (tiled).
Kernel add_kernel(int64_t H, int64_t W, const View& yv, Storage ys) {
    Kernel k;
    k.shape = {H, W};
    int x = k.add_input(DType::f32, View::contiguous({H, W}), 0, tiled(H, W));
    int y = k.add_input(DType::f32, yv, 0, ys);
    k.add_output(DType::f32, View::contiguous({H, W}), k.binary(Op::add, k.load(x), k.load(y)));
    return k;
}

Read read_of(const Plan& p, int input) {
    int s = zyx::tt::codegen::stream_of(p, input, 0);
    EXPECT_GE(s, 0);
    return s >= 0 ? p.streams[size_t(s)].read : Read::index;
}

TEST(TtPlan, MapReadsAlignedTilesAndBroadcasts) {
    Plan same = plan(add_kernel(64, 96, View::contiguous({64, 96}), tiled(64, 96)));
    EXPECT_EQ(same.skeleton, Skeleton::map);
    EXPECT_EQ(read_of(same, 0), Read::tile);
    EXPECT_EQ(read_of(same, 1), Read::tile);
    EXPECT_EQ(same.out_tiles, 6u);
    EXPECT_EQ(same.grid.rows * same.grid.cols, 6u);  // one output tile per core
    // A row vector [96] (tiled as 1 x 96) broadcast down 64 rows: row 0 replicated.
    EXPECT_EQ(
        read_of(plan(add_kernel(64, 96, View::contiguous({96}).reshape({1, 96}).expand({64, 96}), tiled(1, 96))), 1),
        Read::bcast_row);
    // A column [64, 1] broadcast across 96 columns: column 0 replicated.
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({64, 1}).expand({64, 96}), tiled(64, 1))), 1),
              Read::bcast_col);
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({1, 1}).expand({64, 96}), tiled(1, 1))), 1),
              Read::bcast_scalar);
    // The transpose of a [96, 64] buffer: whole tiles, transposed in DST.
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({96, 64}).permute({1, 0}), tiled(96, 64))), 1),
              Read::transposed);
    // A slice starting at row 5 is not tile-aligned, a padded view reads a pad value, a flip walks
    // backwards: each is gathered.
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({80, 96}).shrink({5, 0}, {69, 96}), tiled(80, 96))), 1),
              Read::gather);
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({60, 96}).pad({4, 0}, {0, 0}), tiled(60, 96))), 1),
              Read::gather);
    EXPECT_EQ(read_of(plan(add_kernel(64, 96, View::contiguous({64, 96}).flip({1}), tiled(64, 96))), 1), Read::gather);
    // A slice of whole tiles (rows 32 … 95 of 128) is still read tile by tile.
    EXPECT_EQ(
        read_of(plan(add_kernel(64, 96, View::contiguous({128, 96}).shrink({32, 0}, {96, 96}), tiled(128, 96))), 1),
        Read::tile);
}

TEST(TtPlan, OutputTilesAreSplitOverTheWholeGrid) {
    Plan p = plan(add_kernel(1024, 1024, View::contiguous({1024, 1024}), tiled(1024, 1024)));
    EXPECT_EQ(p.out_tiles, 1024u);
    EXPECT_EQ(p.grid.rows, 8u);
    EXPECT_EQ(p.grid.cols, 8u);
    zyx::tt::protocol::Program prog = zyx::tt::codegen::make_program(p);
    ASSERT_EQ(prog.kernels.size(), 3u);
    EXPECT_EQ(prog.kernels[0].kind, zyx::tt::protocol::KernelKind::data_movement_1);
    EXPECT_EQ(prog.kernels[1].kind, zyx::tt::protocol::KernelKind::compute);
    EXPECT_EQ(prog.kernels[2].kind, zyx::tt::protocol::KernelKind::data_movement_0);
    EXPECT_TRUE(prog.fp32_dest_acc);
    // Both f32 operands are copy_tiled into DST: unpacked straight into it, not through SrcA (TF32).
    std::vector<uint32_t> want_to_dest = {p.streams[0].cb, p.streams[1].cb};
    EXPECT_EQ(prog.unpack_to_dest_fp32, want_to_dest);
    EXPECT_EQ(prog.num_inputs, 2u);
    EXPECT_EQ(prog.kernels[0].runtime_args.size(), 4u);  // core, cores, two input addresses
    for (size_t i = 0; i < prog.cbs.size(); ++i)
        for (size_t j = i + 1; j < prog.cbs.size(); ++j) EXPECT_NE(prog.cbs[i].index, prog.cbs[j].index);
}

// sum over axis `axis` of an f32 [B, H, W] buffer, keepdim.
Kernel sum_kernel(int axis, Op op = Op::reduce_sum) {
    const std::vector<int64_t> s = {3, 40, 70};
    std::vector<int64_t> out = s;
    out[size_t(axis)] = 1;
    std::vector<int> perm;
    for (int d = 0; d < 3; ++d)
        if (d != axis) perm.push_back(d);
    perm.push_back(axis);
    std::vector<int64_t> split = out;
    split.push_back(s[size_t(axis)]);
    Kernel k;
    k.shape = split;
    k.reduce_axes = 1;
    int x = k.add_input(DType::f32, View::contiguous(s).permute(perm).reshape(split), 0, tiled(40, 70));
    k.add_output(DType::f32, View::contiguous(out), k.reduce(op, k.load(x)));
    return k;
}

TEST(TtPlan, ReductionsPutTheReducedAxisInsideTheTile) {
    Plan last = plan(sum_kernel(2));  // along the columns: the result lands in column 0
    EXPECT_EQ(last.skeleton, Skeleton::reduce);
    EXPECT_TRUE(last.reduce_cols);
    EXPECT_FALSE(last.reduce_rows);
    EXPECT_EQ(last.dims[int(Dim::red_cols)].size, 70);
    EXPECT_NE(last.mask_cb, UINT32_MAX);  // 70 = 2 tiles + 6: the last tile is masked
    EXPECT_EQ(last.steps, 3u);
    EXPECT_EQ(last.streams[0].read, Read::tile);
    Plan rows = plan(sum_kernel(1));  // along the rows: the result lands in row 0
    EXPECT_TRUE(rows.reduce_rows);
    EXPECT_FALSE(rows.reduce_cols);
    EXPECT_EQ(rows.streams[0].read, Read::tile);
    Plan outer = plan(sum_kernel(0));  // across matrices: whole tiles added up, nothing in the tile
    EXPECT_FALSE(outer.reduce_rows || outer.reduce_cols);
    EXPECT_EQ(outer.red_outer.size(), 1u);
    EXPECT_EQ(outer.steps, 3u);
    EXPECT_EQ(outer.mask_cb, UINT32_MAX);
    EXPECT_EQ(outer.streams[0].read, Read::tile);
    // A sum of data written from the host (zeros in the tiles' padding) over the whole last axis
    // needs no mask; a kernel result's padding holds anything, so its sum is masked.
    Kernel zp = sum_kernel(2);
    zp.inputs[0].storage.zero_padding = true;
    EXPECT_EQ(plan(zp).mask_cb, UINT32_MAX);
    Kernel zmax = sum_kernel(2, Op::reduce_max);
    zmax.inputs[0].storage.zero_padding = true;  // zero is no identity of max
    EXPECT_NE(plan(zmax).mask_cb, UINT32_MAX);
    // A product has no in-tile form: it walks every reduced element as a step of its own.
    Plan prod = plan(sum_kernel(2, Op::reduce_prod));
    EXPECT_FALSE(prod.reduce_rows || prod.reduce_cols);
    EXPECT_EQ(prod.steps, 70u);
    EXPECT_EQ(prod.mask_cb, UINT32_MAX);
}

// C[M, N] = A[M, K] @ B, with B stored [K, N] or, transposed, [N, K].
Kernel matmul_kernel(bool b_transposed, DType t = DType::bf16) {
    const int64_t M = 64, K = 96, N = 128;
    Kernel k;
    k.shape = {M, N, K};
    k.reduce_axes = 1;
    int a = k.add_input(t, View::contiguous({M, K}).reshape({M, 1, K}).expand({M, N, K}), 0, tiled(M, K));
    View bv = b_transposed ? View::contiguous({N, K}).reshape({1, N, K})
                           : View::contiguous({K, N}).permute({1, 0}).reshape({1, N, K});
    int b = k.add_input(t, bv.expand({M, N, K}), 0, b_transposed ? tiled(N, K) : tiled(K, N));
    int r = k.reduce(Op::reduce_sum, k.binary(Op::mul, k.load(a), k.load(b)));
    k.add_output(t, View::contiguous({M, N}), k.unary(Op::relu, r));
    return k;
}

TEST(TtPlan, MatmulsTakeTheKLoopWithTheirEpilogue) {
    Plan p = plan(matmul_kernel(false));
    EXPECT_EQ(p.skeleton, Skeleton::matmul);
    EXPECT_EQ(p.steps, 3u);
    EXPECT_FALSE(p.transpose_b);
    EXPECT_EQ(p.streams[size_t(p.matmul_a)].read, Read::tile);
    EXPECT_EQ(p.streams[size_t(p.matmul_b)].read, Read::tile);
    EXPECT_FALSE(p.streams[size_t(p.matmul_a)].zero_k_padding);  // K = 96 fills whole tiles
    Plan t = plan(matmul_kernel(true));                          // x @ w.T: matmul_tiles transposes the B tiles
    EXPECT_TRUE(t.transpose_b);
    EXPECT_NE(zyx::tt::codegen::compute_source(t).find("mm_init_short(0, 1, 1)"), std::string::npos);
    EXPECT_NE(zyx::tt::codegen::compute_source(p).find("relu_tile"), std::string::npos);  // the epilogue
    // f32 operands are read by the FPU (SrcA / SrcB): they keep the Default unpack mode.
    Plan f = plan(matmul_kernel(false, DType::f32));
    zyx::tt::protocol::Program fprog = zyx::tt::codegen::make_program(f);
    for (uint32_t cb : fprog.unpack_to_dest_fp32) {
        EXPECT_NE(cb, f.streams[size_t(f.matmul_a)].cb);
        EXPECT_NE(cb, f.streams[size_t(f.matmul_b)].cb);
    }
}

TEST(TtPlan, RefusalsSayWhy) {
    // An f64 buffer has no tile format on the chip: it is stored row-major.
    Kernel f64;
    f64.shape = {4};
    int x = f64.add_input(DType::f64, View::contiguous({4}));
    f64.add_output(DType::f64, View::contiguous({4}), f64.unary(Op::neg, f64.load(x)));
    EXPECT_NE(refusal(f64).find("f64"), std::string::npos);
    // An i32 pow has a tile form only with a constant exponent (unrolled into multiplies).
    Kernel pw;
    pw.shape = {4};
    int a = pw.add_input(DType::i32, View::contiguous({4}), 0, tiled(1, 4));
    pw.add_output(DType::i32, View::contiguous({4}), pw.binary(Op::pow, pw.load(a), pw.load(a)));
    EXPECT_NE(refusal(pw).find("pow"), std::string::npos);
    // An i64 result has nowhere to go.
    Kernel ar;
    ar.shape = {100};
    ar.add_output(DType::i64, View::contiguous({100}), ar.index(0, DType::i64));
    EXPECT_NE(refusal(ar).find("i64"), std::string::npos);
    // Integers other than i32 are f32 values in DST: past 2^24 they would not be exact.
    Kernel big;
    big.shape = {8};
    big.add_output(
        DType::f32, View::contiguous({8}),
        big.cast(big.binary(Op::mul, big.index(0, DType::i64), big.constant_int(DType::i64, 1 << 23)), DType::f32));
    EXPECT_NE(refusal(big).find("2^24"), std::string::npos);
    // i32 values are Int32 words: the same product in i32 is exact, and so are shifts.
    Kernel words;
    words.shape = {8};
    words.add_output(
        DType::i32, View::contiguous({8}),
        words.binary(Op::shl,
                     words.binary(Op::mul, words.index(0, DType::i32), words.constant_int(DType::i32, 1 << 23)),
                     words.constant_int(DType::i32, 3)));
    validate(words);
    std::string why;
    EXPECT_TRUE(zyx::tt::codegen::make_plan(words, kN150, &why)) << why;
    // A small arange is fine: index · step + start in exact f32 integers.
    Kernel small;
    small.shape = {100};
    small.add_output(
        DType::i32, View::contiguous({100}),
        small.binary(Op::add, small.binary(Op::mul, small.index(0, DType::i32), small.constant_int(DType::i32, 3)),
                     small.constant_int(DType::i32, -7)));
    Plan p = plan(small);
    EXPECT_EQ(p.streams.size(), 1u);
    EXPECT_EQ(p.streams[0].read, Read::index);
}

}  // namespace
