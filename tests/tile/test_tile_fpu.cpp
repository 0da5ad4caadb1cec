// FPU tile ops (eltwise_binary, matmul, reduce, transpose) against plain double-precision
// references written here. Tolerances are stated per test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "tile_test_util.hpp"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif

namespace tile = zyx::emu::tile;
using tile_test::bits;
using tile_test::from_bits;
using tile_test::Tile;
using zyx::emu::MathFidelity;

namespace {

// Keeps `sig` significant bits (implicit one included) of a normal float, truncating: this is
// "implicit 1 + top n mantissa bits" of SrcASrcB.md's fidelity table, computed with frexp.
double keep_significant(float x, int sig) {
    if (x == 0.0f) return 0.0;
    int e;
    double m = std::frexp(double(x), &e);  // |m| in [0.5, 1)
    double scaled = std::trunc(std::ldexp(m, sig));
    return std::ldexp(scaled, e - sig);
}

// B operand after broadcast, by definition: Row = row 0 everywhere, Col = column 0, Scalar = [0][0].
float bcast_value(const Tile& b, tile::Broadcast k, int r, int c) {
    switch (k) {
        case tile::Broadcast::Row: return b.at(0, c);
        case tile::Broadcast::Col: return b.at(r, 0);
        case tile::Broadcast::Scalar: return b.at(0, 0);
        default: return b.at(r, c);
    }
}

}  // namespace

// ---- eltwise ----------------------------------------------------------------------------------

// Inputs are bf16 values, so a op b is exact in double; the fp32 result must equal the double
// result rounded once to fp32 (tolerance: exact). With acc_to_dest the sum with DST is rounded
// once more (again exact comparison against the same two roundings).
TEST(TileEltwise, AddSubMulEveryBroadcastWithAndWithoutAccumulate) {
    std::mt19937 rng(11);
    Tile a = tile_test::random_bf16_tile(rng), b = tile_test::random_bf16_tile(rng);
    Tile d0 = tile_test::random_bf16_tile(rng);
    for (auto op : {tile::EltwiseOp::Add, tile::EltwiseOp::Sub, tile::EltwiseOp::Mul})
        for (auto bc : {tile::Broadcast::None, tile::Broadcast::Row, tile::Broadcast::Col, tile::Broadcast::Scalar})
            for (bool acc : {false, true}) {
                Tile d = d0;
                tile::eltwise_binary(op, bc, a.v, b.v, d.v, acc, MathFidelity::HiFi4);
                for (int r = 0; r < 32; ++r)
                    for (int c = 0; c < 32; ++c) {
                        double x = a.at(r, c), y = bcast_value(b, bc, r, c);
                        double v = op == tile::EltwiseOp::Add ? x + y : op == tile::EltwiseOp::Sub ? x - y : x * y;
                        float want = acc ? float(double(d0.at(r, c)) + double(float(v))) : float(v);
                        ASSERT_EQ(d.at(r, c), want)
                            << "op " << int(op) << " bcast " << int(bc) << " acc " << acc << " at " << r << "," << c;
                    }
            }
}

TEST(TileEltwise, AddIgnoresFidelityMulUsesIt) {
    std::mt19937 rng(12);
    Tile a = tile_test::random_bf16_tile(rng), b = tile_test::random_bf16_tile(rng);
    Tile hi, lo;
    tile::eltwise_binary(tile::EltwiseOp::Add, tile::Broadcast::None, a.v, b.v, hi.v, false, MathFidelity::HiFi4);
    tile::eltwise_binary(tile::EltwiseOp::Add, tile::Broadcast::None, a.v, b.v, lo.v, false, MathFidelity::LoFi);
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(bits(hi.v[i]), bits(lo.v[i]));

    // Mul at each fidelity against the phase table (SrcA = a: 5 significant bits in phase 0,
    // SrcB = b: 7 significant bits). LoFi/HiFi2 products are exact in double → exact compare;
    // HiFi3 is a sum of two fp32 products → 2 ulp.
    for (MathFidelity f : {MathFidelity::LoFi, MathFidelity::HiFi2, MathFidelity::HiFi3, MathFidelity::HiFi4}) {
        Tile d;
        tile::eltwise_binary(tile::EltwiseOp::Mul, tile::Broadcast::None, a.v, b.v, d.v, false, f);
        double worst_rel = 0;
        for (int i = 0; i < 1024; ++i) {
            double x = a.v[i], y = b.v[i];
            double ah = keep_significant(a.v[i], 5), bh = keep_significant(b.v[i], 7);
            double want = f == MathFidelity::LoFi ? ah * bh
                : f == MathFidelity::HiFi2        ? x * bh
                : f == MathFidelity::HiFi3        ? x * bh + ah * (y - bh)
                                                  : x * y;
            ASSERT_NEAR(d.v[i], want, std::fabs(want) * 2.5e-7) << "fidelity " << int(f) << " element " << i;
            worst_rel = std::max(worst_rel, std::fabs(d.v[i] - x * y) / std::fabs(x * y));
        }
        if (f == MathFidelity::LoFi) {
            EXPECT_GT(worst_rel, 1.0 / 64);  // LoFi really loses bits
        }
        if (f == MathFidelity::HiFi4) { EXPECT_EQ(worst_rel, 0.0); }
    }
}

TEST(TileEltwise, InvalidArgumentsThrow) {
    Tile a, b, d;
    EXPECT_THROW(
        tile::eltwise_binary(tile::EltwiseOp(9), tile::Broadcast::None, a.v, b.v, d.v, false, MathFidelity::HiFi4),
        zyx::Error);
    EXPECT_THROW(
        tile::eltwise_binary(tile::EltwiseOp::Add, tile::Broadcast(9), a.v, b.v, d.v, false, MathFidelity::HiFi4),
        zyx::Error);
    try {
        tile::matmul(a.v, b.v, d.v, false, MathFidelity(1));
        FAIL();
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::InvalidArgument);
        EXPECT_NE(e.message().find("fidelity 1"), std::string::npos) << e.message();
    }
}

// ---- matmul -----------------------------------------------------------------------------------

namespace {

// dst0 + a·b in double with optional fidelity truncation of the operands (a is SrcB: 7
// significant bits in its hi part; b is SrcA: 5). Returns the reference and Σ|terms| for the
// tolerance.
void matmul_reference(const Tile& a, const Tile& b, const Tile& dst0, bool tb, MathFidelity f, double* ref,
                      double* mag) {
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            double s = dst0.at(i, j), m = std::fabs(dst0.at(i, j));
            for (int k = 0; k < 32; ++k) {
                float av = a.at(i, k), bv = tb ? b.at(j, k) : b.at(k, j);
                double x = av, y = bv, xh = keep_significant(av, 7), yh = keep_significant(bv, 5);
                double p = f == MathFidelity::LoFi ? xh * yh
                    : f == MathFidelity::HiFi2     ? xh * y
                    : f == MathFidelity::HiFi3     ? xh * y + (x - xh) * yh
                                                   : x * y;
                s += p;
                m += std::fabs(p);
            }
            ref[i * 32 + j] = s;
            mag[i * 32 + j] = m;
        }
}

}  // namespace

// Tolerance: fp32 accumulation of 33 terms, |err| ≤ 40 · 2^-24 · Σ|terms|.
TEST(TileMatmul, AccumulatesProductEveryFidelityAndTranspose) {
    std::mt19937 rng(21);
    Tile a = tile_test::random_bf16_tile(rng), b = tile_test::random_bf16_tile(rng);
    Tile d0 = tile_test::random_bf16_tile(rng);
    static double ref[1024], mag[1024];
    for (bool tb : {false, true})
        for (MathFidelity f : {MathFidelity::HiFi4, MathFidelity::HiFi3, MathFidelity::HiFi2, MathFidelity::LoFi}) {
            Tile d = d0;
            tile::matmul(a.v, b.v, d.v, tb, f);
            matmul_reference(a, b, d0, tb, f, ref, mag);
            for (int i = 0; i < 1024; ++i)
                ASSERT_NEAR(d.v[i], ref[i], 40.0 * std::ldexp(1.0, -24) * mag[i])
                    << "transpose_b " << tb << " fidelity " << int(f) << " element " << i;
        }
}

TEST(TileMatmul, LowerFidelityIsLessAccurate) {
    std::mt19937 rng(22);
    Tile a = tile_test::random_bf16_tile(rng, -1, 1), b = tile_test::random_bf16_tile(rng, -1, 1);
    static double ref[1024], mag[1024];
    Tile zero;
    matmul_reference(a, b, zero, false, MathFidelity::HiFi4, ref, mag);
    double err[5] = {};
    for (MathFidelity f : {MathFidelity::HiFi4, MathFidelity::HiFi2, MathFidelity::LoFi}) {
        Tile d;
        tile::matmul(a.v, b.v, d.v, false, f);
        for (int i = 0; i < 1024; ++i) err[int(f)] = std::max(err[int(f)], std::fabs(d.v[i] - ref[i]) / mag[i]);
    }
    EXPECT_LT(err[4], 1e-6);
    EXPECT_GT(err[2], err[4] * 10);
    EXPECT_GT(err[0], err[2]);
}

TEST(TileMatmul, Fp32OperandInSrcALosesTf32Lsb) {
    // b (SrcA) = 1 + 2^-10 + 2^-11: the TF32 mantissa LSB (2^-10) is dropped, and with it
    // everything below; a (SrcB) keeps full precision. a = e0 (row 0 picks b's row 0).
    Tile a, b, d;
    a.at(0, 0) = 1.0f;
    b.at(0, 0) = 1.0f + std::ldexp(1.0f, -10) + std::ldexp(1.0f, -11);
    tile::matmul(a.v, b.v, d.v, false, MathFidelity::HiFi4);
    EXPECT_EQ(d.at(0, 0), 1.0f);
    Tile a2, b2, d2;  // the same in SrcB is kept
    a2.at(0, 0) = 1.0f + std::ldexp(1.0f, -10) + std::ldexp(1.0f, -11);
    b2.at(0, 0) = 1.0f;
    tile::matmul(a2.v, b2.v, d2.v, false, MathFidelity::HiFi4);
    EXPECT_EQ(d2.at(0, 0), a2.at(0, 0));
}

TEST(TileMatmul, DenormalOperandsReadAsZero) {
    Tile a, b, d;
    a.at(0, 0) = 1e-40f;  // fp32 denormal
    b.at(0, 0) = 1e30f;
    tile::matmul(a.v, b.v, d.v, false, MathFidelity::HiFi4);
    EXPECT_EQ(d.at(0, 0), 0.0f);  // IEEE would give 1e-10
#if defined(__SSE__)
    unsigned before = _mm_getcsr();
    tile::matmul(a.v, b.v, d.v, false, MathFidelity::HiFi4);
    EXPECT_EQ(_mm_getcsr(), before) << "MXCSR must be restored";
    volatile float tiny = 1e-40f;
    EXPECT_NE(tiny * 1.0f, 0.0f) << "caller's denormal handling changed";
#endif
}

namespace {

// d0 + a·(tb ? bᵀ : b) by matmul's definition (tile_math.hpp): per element a chain of fp32
// fused multiply-adds over k = 1, 0, 3, 2, … (`pairs_odd_first`; false: 0, 1, 2, …), denormal
// inputs read as zero and denormal results flushed (MXCSR DAZ + FTZ where the host has it).
void matmul_by_definition(const Tile& a, const Tile& b, const Tile& d0, bool tb, bool pairs_odd_first, Tile* out) {
#if defined(__SSE__)
    const unsigned saved = _mm_getcsr();
    _mm_setcsr(saved | 0x8040u);
#endif
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = d0.at(i, j);
            for (int step = 0; step < 32; ++step) {
                const int k = pairs_odd_first ? step ^ 1 : step;
                s = std::fma(a.at(i, k), tb ? b.at(j, k) : b.at(k, j), s);
            }
            out->at(i, j) = s;
        }
#if defined(__SSE__)
    _mm_setcsr(saved);
#endif
}

// bf16 operands whose sums cancel (magnitudes 2^-12 … 2^12), so the order of the additions
// shows in the last bits; a few zeros, and values whose products underflow.
Tile cancelling_bf16_tile(std::mt19937& rng) {
    Tile t = tile_test::random_bf16_tile(rng, -12, 12);
    for (int i = 0; i < 1024; i += 37) t.v[i] = 0.0f;
    for (int i = 5; i < 1024; i += 101) t.v[i] = tile_test::random_bf16(rng, -70, -60);
    return t;
}

// The L1 image of a bf16-exact tile: face order (tile_math.hpp), the high half of each float.
std::vector<uint16_t> to_l1_bf16(const Tile& t) {
    std::vector<uint16_t> l1(1024);
    for (uint32_t r = 0; r < 32; ++r)
        for (uint32_t c = 0; c < 32; ++c) l1[tile::face_index(r, c)] = uint16_t(bits(t.at(int(r), int(c))) >> 16);
    return l1;
}

}  // namespace

// Exact: matmul's accumulation order is part of its contract (the emulator gives the same bits
// on every host, with or without AVX-512 and AVX512-BF16).
TEST(TileMatmul, AccumulatesInTheDocumentedOrder) {
    std::mt19937 rng(23);
    const Tile a = cancelling_bf16_tile(rng), b = cancelling_bf16_tile(rng), d0 = cancelling_bf16_tile(rng);
    for (bool tb : {false, true}) {
        Tile want, sequential, d = d0;
        matmul_by_definition(a, b, d0, tb, true, &want);
        matmul_by_definition(a, b, d0, tb, false, &sequential);
        int order_shows = 0;
        for (int i = 0; i < 1024; ++i) order_shows += bits(want.v[i]) != bits(sequential.v[i]);
        ASSERT_GT(order_shows, 10) << "these inputs must tell the two orders apart";
        tile::matmul(a.v, b.v, d.v, tb, MathFidelity::HiFi4);
        for (int i = 0; i < 1024; ++i)
            ASSERT_EQ(bits(d.v[i]), bits(want.v[i])) << "transpose_b " << tb << " element " << i << ": " << d.v[i]
                                                     << " vs " << want.v[i];
    }
}

// Exact: matmul_bf16 on L1 tiles is unpack_tile + matmul, bit for bit, on every path.
TEST(TileMatmul, Bf16FromL1IsUnpackThenMatmul) {
    std::mt19937 rng(24);
    for (int round = 0; round < 4; ++round) {
        Tile a = cancelling_bf16_tile(rng), b = cancelling_bf16_tile(rng);
        const Tile d0 = cancelling_bf16_tile(rng);
        a.v[3] = from_bits(0x00050000u);   // bf16 denormals: read as zero
        b.v[97] = from_bits(0x80400000u);
        const std::vector<uint16_t> la = to_l1_bf16(a), lb = to_l1_bf16(b);
        for (bool tb : {false, true})
            for (MathFidelity f : {MathFidelity::HiFi4, MathFidelity::HiFi3, MathFidelity::HiFi2, MathFidelity::LoFi}) {
                Tile ua, ub, want = d0, got = d0;
                tile::unpack_tile(zyx::emu::DataFormat::Float16_b, la.data(), ua.v);
                tile::unpack_tile(zyx::emu::DataFormat::Float16_b, lb.data(), ub.v);
                tile::matmul(ua.v, ub.v, want.v, tb, f);
                tile::matmul_bf16(la.data(), lb.data(), got.v, tb, f);
                for (int i = 0; i < 1024; ++i)
                    ASSERT_EQ(bits(got.v[i]), bits(want.v[i]))
                        << "round " << round << " transpose_b " << tb << " fidelity " << int(f) << " element " << i
                        << " (dot product path: " << tile::matmul_bf16_uses_dot_product() << ")";
            }
    }
}

// ---- reduce -----------------------------------------------------------------------------------

namespace {

Tile scaler_tile(float s) {  // row 0 of every face = s, as reduce kernels build it
    Tile t;
    for (int c = 0; c < 32; ++c) t.at(0, c) = s, t.at(16, c) = s;
    return t;
}

}  // namespace

// Sum/Avg tolerance: 1 ulp of fp32 on the result (reference summed in double).
TEST(TileReduce, SumPlacementPerDimensionAndAccumulation) {
    std::mt19937 rng(31);
    Tile in = tile_test::random_bf16_tile(rng);
    Tile sc = scaler_tile(1.0f);
    for (auto dim : {tile::ReduceDim::Row, tile::ReduceDim::Col, tile::ReduceDim::Scalar}) {
        Tile d;
        tile::fill(d.v, 7.0f);  // sentinel: untouched elements must stay 7
        tile::reduce(tile::PoolType::Sum, dim, in.v, sc.v, d.v);
        tile::reduce(tile::PoolType::Sum, dim, in.v, sc.v, d.v);  // accumulates
        for (int r = 0; r < 32; ++r)
            for (int c = 0; c < 32; ++c) {
                bool is_out = dim == tile::ReduceDim::Row ? c == 0
                    : dim == tile::ReduceDim::Col         ? r == 0
                                                          : (r == 0 && c == 0);
                if (!is_out) {
                    ASSERT_EQ(d.at(r, c), 7.0f) << "dim " << int(dim) << " touched " << r << "," << c;
                    continue;
                }
                double s = 0;
                for (int k = 0; k < 32; ++k) {
                    if (dim == tile::ReduceDim::Row)
                        s += in.at(r, k);
                    else if (dim == tile::ReduceDim::Col)
                        s += in.at(k, c);
                    else
                        for (int j = 0; j < 32; ++j) s += in.at(k, j);
                }
                double want = 7.0 + 2 * s;
                ASSERT_NEAR(d.at(r, c), want, std::fabs(want) * 2.4e-7 + 1e-6)
                    << "dim " << int(dim) << " at " << r << "," << c;
            }
    }
}

TEST(TileReduce, AvgUsesTheScalerRowAndScalarAppliesItTwice) {
    std::mt19937 rng(32);
    Tile in = tile_test::random_bf16_tile(rng);
    double total = 0, row3 = 0;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) total += in.at(r, c);
    for (int c = 0; c < 32; ++c) row3 += in.at(3, c);
    Tile d;
    Tile s32 = scaler_tile(1.0f / 32.0f);
    tile::reduce(tile::PoolType::Avg, tile::ReduceDim::Row, in.v, s32.v, d.v);
    EXPECT_NEAR(d.at(3, 0), row3 / 32, 1e-6);
    Tile ds;
    tile::reduce(tile::PoolType::Avg, tile::ReduceDim::Scalar, in.v, s32.v, ds.v);  // 1/√1024 twice
    EXPECT_NEAR(ds.at(0, 0), total / 1024, 1e-6);
    // Per-position scale: column k scaled by scaler[0][k].
    Tile ramp;
    for (int c = 0; c < 32; ++c) ramp.at(0, c) = float(c);
    Tile dr;
    tile::reduce(tile::PoolType::Sum, tile::ReduceDim::Row, in.v, ramp.v, dr.v);
    double want = 0;
    for (int c = 0; c < 32; ++c) want += double(in.at(5, c)) * c;
    EXPECT_NEAR(dr.at(5, 0), want, std::fabs(want) * 2.4e-7);
}

TEST(TileReduce, MaxStartsFromMinusInfOnClearedDst) {
    Tile in;
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) in.at(r, c) = -1.0f - float((r * 7 + c * 13) % 50);  // all negative
    Tile sc = scaler_tile(1.0f);
    Tile cleared, stale;
    tile::reduce(tile::PoolType::Max, tile::ReduceDim::Row, in.v, sc.v, cleared.v, /*dst_cleared=*/true);
    tile::reduce(tile::PoolType::Max, tile::ReduceDim::Row, in.v, sc.v, stale.v);  // dst holds 0
    for (int r = 0; r < 32; ++r) {
        float m = -std::numeric_limits<float>::infinity();
        for (int c = 0; c < 32; ++c) m = std::max(m, in.at(r, c));
        EXPECT_EQ(cleared.at(r, 0), m) << r;
        EXPECT_EQ(stale.at(r, 0), 0.0f) << r;
        EXPECT_EQ(cleared.at(r, 1), 0.0f);
    }
    // Col and Scalar placement, and the max with a previous larger value.
    Tile col;
    tile::fill(col.v, 5.0f);
    col.at(0, 3) = -100.0f;
    tile::reduce(tile::PoolType::Max, tile::ReduceDim::Col, in.v, sc.v, col.v);
    EXPECT_EQ(col.at(0, 0), 5.0f);  // previous 5 is larger
    float m3 = -1e30f;
    for (int r = 0; r < 32; ++r) m3 = std::max(m3, in.at(r, 3));
    EXPECT_EQ(col.at(0, 3), m3);
    EXPECT_EQ(col.at(1, 3), 5.0f);
    Tile sca;
    tile::reduce(tile::PoolType::Max, tile::ReduceDim::Scalar, in.v, sc.v, sca.v, true);
    EXPECT_EQ(sca.at(0, 0), -1.0f);
}

TEST(TileReduce, MaxScalesByThePowerOfTwoOfTheScaler) {
    Tile in;
    tile::fill(in.v, -3.0f);
    in.at(2, 9) = 6.0f;
    Tile sc = scaler_tile(0.75f);  // exponent of 0.75 is 2^-1
    Tile d;
    tile::reduce(tile::PoolType::Max, tile::ReduceDim::Row, in.v, sc.v, d.v, true);
    EXPECT_EQ(d.at(2, 0), 3.0f);
    EXPECT_EQ(d.at(0, 0), -1.5f);
}

TEST(TileReduce, InvalidEnumsThrow) {
    Tile a, s, d;
    EXPECT_THROW(tile::reduce(tile::PoolType(7), tile::ReduceDim::Row, a.v, s.v, d.v), zyx::Error);
    EXPECT_THROW(tile::reduce(tile::PoolType::Sum, tile::ReduceDim(7), a.v, s.v, d.v), zyx::Error);
}

// ---- transpose --------------------------------------------------------------------------------

TEST(TileTranspose, TransposesAndAllowsInPlace) {
    Tile in, out;
    for (int i = 0; i < 1024; ++i) in.v[i] = float(i);
    tile::transpose(in.v, out.v);
    for (int r = 0; r < 32; ++r)
        for (int c = 0; c < 32; ++c) ASSERT_EQ(out.at(r, c), float(c * 32 + r));
    tile::transpose(out.v, out.v);
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(out.v[i], float(i));
}

TEST(TileTranspose, InDstTransposeFollowsTheDstWidth) {
    Tile in;
    for (int i = 0; i < 1024; ++i) in.v[i] = from_bits(0x3f800000u + uint32_t(i) * 0x00010001u);  // both halves vary
    in.v[5] = from_bits(0x00012345u);                          // a denormal: its exponent field is 0
    in.v[6] = from_bits(0x80001234u);                          // a negative denormal
    auto t_of = [](int i) { return (i % 32) * 32 + i / 32; };  // the element (c, r) moves to (r, c)

    Tile t = in;  // 32-bit DST, is_32bit: the exact bitwise transpose, denormals kept
    tile::transpose_dest(t.v, /*dest32=*/true, /*is_32bit=*/true);
    for (int i = 0; i < 1024; ++i) ASSERT_EQ(bits(t.v[i]), bits(in.v[t_of(i)])) << i;

    t = in;  // 32-bit DST without is_32bit: the high halves move, the low halves stay
    tile::transpose_dest(t.v, true, false);
    for (int i = 0; i < 1024; ++i) {
        uint32_t hi = bits(in.v[t_of(i)]) & 0xffff0000u;
        if ((hi & 0x7f800000u) == 0) hi &= 0x80000000u;
        ASSERT_EQ(bits(t.v[i]), hi | (bits(in.v[i]) & 0xffffu)) << i;
    }

    Tile b;  // 16-bit DST: bf16 values transpose; zero-exponent datums become signed zeros
    for (int i = 0; i < 1024; ++i) b.v[i] = from_bits(bits(in.v[i]) & 0xffff0000u);
    b.v[7] = from_bits(0x80010000u);  // a negative bf16 denormal
    t = b;
    tile::transpose_dest(t.v, false, false);
    for (int i = 0; i < 1024; ++i) {
        uint32_t want = bits(b.v[t_of(i)]);
        if ((want & 0x7f800000u) == 0) want &= 0x80000000u;
        ASSERT_EQ(bits(t.v[i]), want) << i;
    }
    EXPECT_EQ(bits(t.v[t_of(7)]), 0x80000000u);

    try {
        tile::transpose_dest(t.v, false, true);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) {
        EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported);
        EXPECT_NE(e.message().find("is_32bit"), std::string::npos) << e.message();
    }
}

TEST(TileReduce, FpuMinIsUnsupported) {
    Tile a, s, d;
    try {
        tile::reduce(tile::PoolType::Min, tile::ReduceDim::Row, a.v, s.v, d.v);
        FAIL() << "expected an error";
    } catch (const zyx::Error& e) { EXPECT_EQ(e.status(), zyx::ErrorStatus::Unsupported); }
}
