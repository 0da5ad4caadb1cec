// torch.nn.functional's breadth (issue 15, item 4): linear, dropout, conv1d, conv_transpose2d,
// pooling options, adaptive pooling, interpolate, batch_norm, group_norm and the losses with
// PyTorch's options, each against a reference written here in plain loops over doubles from
// PyTorch's documented definitions; errors that name the function and the bad argument.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <random>

#include "tensor_test_env.hpp"
#include "tensor_test_values.hpp"
#include "zyx/tensor.hpp"

namespace {

using namespace zyx;
using zyx::test::expect_near;
using zyx::test::values;

const double kInf = std::numeric_limits<double>::infinity();

Tensor make(const std::vector<double>& v, const Shape& s, DType t = DType::f32) { return tensor(v, s, t); }

void expect_error(const std::function<void()>& f, const std::vector<std::string>& fragments) {
    try {
        f();
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        for (const auto& frag : fragments)
            EXPECT_NE(e.message().find(frag), std::string::npos) << e.message() << " lacks " << frag;
    }
}

// ---- linear, dropout ------------------------------------------------------------------------------

TEST(NnFunctional, Linear) {
    auto x = values(2 * 3, 1), w = values(4 * 3, 2), b = values(4, 3);
    std::vector<double> want(8);
    for (int n = 0; n < 2; ++n)
        for (int o = 0; o < 4; ++o) {
            double s = b[size_t(o)];
            for (int i = 0; i < 3; ++i) s += x[size_t(n * 3 + i)] * w[size_t(o * 3 + i)];
            want[size_t(n * 4 + o)] = s;
        }
    expect_near(linear(make(x, {2, 3}), make(w, {4, 3}), make(b, {4})), {2, 4}, want);
    expect_error([&] { linear(make(x, {2, 3}), make(w, {3, 4})); }, {"linear", "[2,3]", "in_features 4"});
    expect_error(
        [&] {
            linear(make(x, {2, 3}), make(w, {4, 3}), make(values(3, 4), {3}));
        },
        {"linear", "bias must have shape [4]"});
}

TEST(NnFunctional, Dropout) {
    Tensor x = full({64, 64}, 3.0);
    Generator g(7);
    std::vector<float> y = dropout(x, 0.25, true, g).to_vector<float>();
    int zeros = 0;
    for (float v : y) {
        EXPECT_TRUE(v == 0.0f || std::fabs(v - 4.0f) < 1e-6f) << v;  // 3 / (1 − 0.25)
        zeros += v == 0.0f;
    }
    EXPECT_NEAR(double(zeros) / double(y.size()), 0.25, 0.03);
    EXPECT_EQ(dropout(x, 0.25, false).node(), x.node()) << "not training: x itself";
    for (float v : dropout(x, 1.0, true, g).to_vector<float>()) EXPECT_EQ(v, 0.0f);
    expect_error([&] { dropout(x, 1.5); }, {"dropout", "1.5", "[0, 1]"});
    expect_error([&] { dropout(full({3}, 1, DType::i32), 0.5); }, {"dropout", "floating", "i32"});
}

// ---- convolutions ---------------------------------------------------------------------------------

TEST(NnFunctional, Conv1dWithStridePaddingDilationGroups) {
    const int64_t N = 2, C = 4, L = 9, O = 6, G = 2, K = 3, S = 2, P = 1, D = 2;
    auto x = values(N * C * L, 11), w = values(O * (C / G) * K, 12), b = values(O, 13);
    const int64_t OL = (L + 2 * P - D * (K - 1) - 1) / S + 1;
    std::vector<double> want(size_t(N * O * OL));
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < O; ++o)
            for (int64_t l = 0; l < OL; ++l) {
                double s = b[size_t(o)];
                const int64_t g = o / (O / G);
                for (int64_t c = 0; c < C / G; ++c)
                    for (int64_t k = 0; k < K; ++k) {
                        const int64_t at = l * S - P + k * D;
                        if (at < 0 || at >= L) continue;
                        s += x[size_t((n * C + g * (C / G) + c) * L + at)] * w[size_t((o * (C / G) + c) * K + k)];
                    }
                want[size_t((n * O + o) * OL + l)] = s;
            }
    Tensor y = conv1d(make(x, {N, C, L}), make(w, {O, C / G, K}), make(b, {O}),
                      {.stride = S, .padding = P, .dilation = D, .groups = G});
    expect_near(y, {N, O, OL}, want);
}

TEST(NnFunctional, ConvTranspose2dScattersEachInputThroughTheKernel) {
    const int64_t N = 1, C = 4, H = 3, W = 4, G = 2, Og = 3, KH = 3, KW = 2;
    const Size2d S{2, 3}, P{1, 0}, OP{1, 2}, D{1, 2};
    auto x = values(N * C * H * W, 21), w = values(C * Og * KH * KW, 22), b = values(G * Og, 23);
    const int64_t OH = (H - 1) * S.h - 2 * P.h + D.h * (KH - 1) + OP.h + 1;
    const int64_t OW = (W - 1) * S.w - 2 * P.w + D.w * (KW - 1) + OP.w + 1;
    const int64_t O = G * Og;
    std::vector<double> want(size_t(N * O * OH * OW));
    for (int64_t n = 0; n < N; ++n)
        for (int64_t o = 0; o < O; ++o)
            for (int64_t i = 0; i < OH * OW; ++i) want[size_t((n * O + o) * OH * OW + i)] = b[size_t(o)];
    for (int64_t n = 0; n < N; ++n)
        for (int64_t c = 0; c < C; ++c)
            for (int64_t ih = 0; ih < H; ++ih)
                for (int64_t iw = 0; iw < W; ++iw)
                    for (int64_t oc = 0; oc < Og; ++oc)
                        for (int64_t kh = 0; kh < KH; ++kh)
                            for (int64_t kw = 0; kw < KW; ++kw) {
                                const int64_t oh = ih * S.h - P.h + kh * D.h, ow = iw * S.w - P.w + kw * D.w;
                                if (oh < 0 || oh >= OH || ow < 0 || ow >= OW) continue;
                                const int64_t o = (c / (C / G)) * Og + oc;
                                want[size_t(((n * O + o) * OH + oh) * OW + ow)] +=
                                    x[size_t(((n * C + c) * H + ih) * W + iw)] *
                                    w[size_t(((c * Og + oc) * KH + kh) * KW + kw)];
                            }
    Tensor y = conv_transpose2d(make(x, {N, C, H, W}), make(w, {C, Og, KH, KW}), make(b, {O}),
                                {.stride = S, .padding = P, .output_padding = OP, .groups = G, .dilation = D});
    expect_near(y, {N, O, OH, OW}, want);
    // 3-D input; the gradient of conv2d with respect to its input is this op: (a, conv2d(x, w)) = (conv_transpose2d(a, w), x).
    Tensor x3 = make(values(2 * 5 * 5, 24), {2, 5, 5}).requires_grad_();
    Tensor w3 = make(values(3 * 2 * 3 * 3, 25), {3, 2, 3, 3});
    Tensor a = make(values(3 * 3 * 3, 26), {3, 3, 3});
    (conv2d(x3, w3) * a).sum().backward();
    expect_near(conv_transpose2d(a, w3), {2, 5, 5}, x3.grad().cast(DType::f64).to_vector<double>());
    expect_error(
        [&] {
            conv_transpose2d(make(x, {N, C, H, W}), make(w, {C, Og, KH, KW}), Tensor(),
                             {.stride = 2, .output_padding = 2});
        },
        {"conv_transpose2d", "output_padding (2, 2)", "smaller than stride (2, 2)"});
}

// ---- pooling --------------------------------------------------------------------------------------

int64_t pool_out(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
    const int64_t span = in + 2 * p - d * (k - 1) - 1;
    int64_t out = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
    if (ceil_mode && (out - 1) * s >= in + p) --out;
    return out;
}

// PyTorch's max / avg pooling of one [H, W] plane, from its definitions.
std::vector<double> pool_ref(const std::vector<double>& x, int64_t H, int64_t W, Size2d k, Size2d s, Size2d p, Size2d d,
                             const Pool2dOptions& o, bool max, int64_t* OH, int64_t* OW) {
    *OH = pool_out(H, k.h, s.h, p.h, d.h, o.ceil_mode), *OW = pool_out(W, k.w, s.w, p.w, d.w, o.ceil_mode);
    std::vector<double> out;
    for (int64_t oh = 0; oh < *OH; ++oh)
        for (int64_t ow = 0; ow < *OW; ++ow) {
            if (max) {
                double m = -kInf;
                for (int64_t i = 0; i < k.h; ++i)
                    for (int64_t j = 0; j < k.w; ++j) {
                        const int64_t r = oh * s.h - p.h + i * d.h, c = ow * s.w - p.w + j * d.w;
                        if (r >= 0 && r < H && c >= 0 && c < W) m = std::max(m, x[size_t(r * W + c)]);
                    }
                out.push_back(m);
                continue;
            }
            int64_t h0 = oh * s.h - p.h, w0 = ow * s.w - p.w;
            int64_t h1 = std::min(h0 + k.h, H + p.h), w1 = std::min(w0 + k.w, W + p.w);
            const int64_t padded = (h1 - h0) * (w1 - w0);
            h0 = std::max<int64_t>(h0, 0), w0 = std::max<int64_t>(w0, 0), h1 = std::min(h1, H), w1 = std::min(w1, W);
            double sum = 0;
            for (int64_t r = h0; r < h1; ++r)
                for (int64_t c = w0; c < w1; ++c) sum += x[size_t(r * W + c)];
            const double div = o.divisor_override > 0 ? double(o.divisor_override)
                : o.count_include_pad                 ? double(padded)
                                                      : double((h1 - h0) * (w1 - w0));
            out.push_back(sum / div);
        }
    return out;
}

TEST(NnFunctional, PoolingOptions) {
    const int64_t H = 7, W = 6;
    auto x = values(H * W, 31);
    struct Case {
        Size2d k, s, p, d;
        bool ceil_mode, include_pad;
        int64_t divisor;
    };
    for (const Case& c : {Case{3, 2, 1, 1, true, true, 0}, Case{{3, 2}, {2, 2}, {1, 1}, 1, true, false, 0},
                          Case{2, 2, 0, 1, false, false, 0}, Case{{2, 3}, 2, {1, 1}, 1, true, true, 5},
                          Case{2, 3, 1, {2, 2}, true, true, 0}}) {
        Pool2dOptions o{.stride = c.s,
                        .padding = c.p,
                        .dilation = c.d,
                        .ceil_mode = c.ceil_mode,
                        .count_include_pad = c.include_pad,
                        .divisor_override = c.divisor};
        int64_t OH, OW;
        auto want = pool_ref(x, H, W, c.k, c.s, c.p, c.d, o, true, &OH, &OW);
        expect_near(max_pool2d(make(x, {1, 1, H, W}), c.k, o), {1, 1, OH, OW}, want);
        if (c.d.h == 1 && c.d.w == 1) {
            want = pool_ref(x, H, W, c.k, c.s, c.p, c.d, o, false, &OH, &OW);
            expect_near(avg_pool2d(make(x, {1, H, W}), c.k, o), {1, OH, OW}, want);
        }
    }
    expect_error([&] { avg_pool2d(make(x, {1, 1, H, W}), 2, {.dilation = 2}); }, {"avg_pool2d", "no dilation"});
}

TEST(NnFunctional, AdaptivePooling) {
    const int64_t H = 7, W = 5, OH = 3, OW = 2;
    auto x = values(2 * H * W, 41);
    x[3] = std::nan("");  // plane 0, row 0, column 3: one max cell and one average become NaN
    std::vector<double> avg, mx;
    for (int64_t c = 0; c < 2; ++c)
        for (int64_t i = 0; i < OH; ++i)
            for (int64_t j = 0; j < OW; ++j) {
                const int64_t h0 = i * H / OH, h1 = ((i + 1) * H + OH - 1) / OH, w0 = j * W / OW,
                              w1 = ((j + 1) * W + OW - 1) / OW;
                double s = 0, m = -kInf;
                for (int64_t r = h0; r < h1; ++r)
                    for (int64_t q = w0; q < w1; ++q) {
                        const double v = x[size_t((c * H + r) * W + q)];
                        s += v;
                        m = std::isnan(v) || std::isnan(m) ? std::nan("") : std::max(m, v);
                    }
                avg.push_back(s / double((h1 - h0) * (w1 - w0)));
                mx.push_back(m);
            }
    expect_near(adaptive_avg_pool2d(make(x, {1, 2, H, W}), {OH, OW}), {1, 2, OH, OW}, avg);
    expect_near(adaptive_max_pool2d(make(x, {2, H, W}), {OH, OW}), {2, OH, OW}, mx);
    // integers keep their dtype under max
    Tensor xi = arange(Scalar(0), Scalar(35), Scalar(1), DType::i32).reshape({1, 7, 5});
    Tensor mi = adaptive_max_pool2d(xi, 1);
    EXPECT_EQ(mi.dtype(), DType::i32);
    EXPECT_EQ(mi.item<int32_t>(), 34);
    expect_error([&] { adaptive_avg_pool2d(make(x, {1, 2, H, W}), {0, 2}); }, {"adaptive_avg_pool2d", "(0, 2)"});
}

TEST(NnFunctional, Interpolate) {
    const int64_t H = 3, W = 4;
    auto x = values(H * W, 51);
    auto at = [&](int64_t r, int64_t c) { return x[size_t(r * W + c)]; };
    // nearest to (5, 3): source floor(i·in/out)
    {
        std::vector<double> want;
        for (int64_t i = 0; i < 5; ++i)
            for (int64_t j = 0; j < 3; ++j) want.push_back(at(i * H / 5, j * W / 3));
        expect_near(interpolate(make(x, {1, 1, H, W}), {.size = Size2d{5, 3}}), {1, 1, 5, 3}, want, 0);
        Tensor xi = make(x, {1, H, W}).mul(100).cast(DType::i32);
        Tensor yi = interpolate(xi, {.scale_factor = std::pair{2.0, 1.5}});
        EXPECT_EQ(yi.dtype(), DType::i32);
        EXPECT_EQ(yi.shape(), (Shape{1, 6, 6}));
        std::vector<int32_t> got = yi.to_vector<int32_t>(), src = xi.to_vector<int32_t>();
        for (int64_t i = 0; i < 6; ++i)
            for (int64_t j = 0; j < 6; ++j)
                EXPECT_EQ(got[size_t(i * 6 + j)],
                          src[size_t(int64_t(std::floor(double(i) / 2.0)) * W + int64_t(std::floor(double(j) / 1.5)))]);
    }
    // bilinear, both corner rules
    for (bool corners : {false, true}) {
        const int64_t OH = 5, OW = 7;
        auto src = [&](int64_t i, int64_t in, int64_t out) {
            if (corners) return out > 1 ? double(i) * double(in - 1) / double(out - 1) : 0.0;
            return std::max((double(i) + 0.5) * double(in) / double(out) - 0.5, 0.0);
        };
        std::vector<double> want;
        for (int64_t i = 0; i < OH; ++i)
            for (int64_t j = 0; j < OW; ++j) {
                const double sr = src(i, H, OH), sc = src(j, W, OW);
                const int64_t r0 = std::min<int64_t>(int64_t(sr), H - 1), c0 = std::min<int64_t>(int64_t(sc), W - 1);
                const int64_t r1 = std::min(r0 + 1, H - 1), c1 = std::min(c0 + 1, W - 1);
                const double lr = sr - double(r0), lc = sc - double(c0);
                want.push_back((1 - lr) * ((1 - lc) * at(r0, c0) + lc * at(r0, c1)) +
                               lr * ((1 - lc) * at(r1, c0) + lc * at(r1, c1)));
            }
        expect_near(
            interpolate(make(x, {1, 1, H, W}), {.size = Size2d{OH, OW}, .mode = "bilinear", .align_corners = corners}),
            {1, 1, OH, OW}, want);
    }
    expect_error([&] { interpolate(make(x, {1, 1, H, W}), {.mode = "bicubic"}); }, {"interpolate", "bicubic"});
    expect_error(
        [&] {
            interpolate(make(x, {1, 1, H, W}), {});
        },
        {"interpolate", "exactly one of size and scale_factor"});
}

// ---- normalisation --------------------------------------------------------------------------------

TEST(NnFunctional, BatchNormTrainingUpdatesRunningStatistics) {
    const int64_t N = 3, C = 2, L = 4, n = N * L;
    auto x = values(N * C * L, 61), w = values(C, 62), b = values(C, 63);
    Tensor rm = zeros({C}), rv = ones({C});
    Tensor y = batch_norm(make(x, {N, C, L}), rm, rv, make(w, {C}), make(b, {C}), true, 0.1, 1e-5);
    std::vector<double> want(x.size()), want_rm, want_rv;
    for (int64_t c = 0; c < C; ++c) {
        double mean = 0, var = 0;
        for (int64_t i = 0; i < N; ++i)
            for (int64_t l = 0; l < L; ++l) mean += x[size_t((i * C + c) * L + l)];
        mean /= double(n);
        for (int64_t i = 0; i < N; ++i)
            for (int64_t l = 0; l < L; ++l) var += std::pow(x[size_t((i * C + c) * L + l)] - mean, 2);
        for (int64_t i = 0; i < N; ++i)
            for (int64_t l = 0; l < L; ++l) {
                const size_t at = size_t((i * C + c) * L + l);
                want[at] = (x[at] - mean) / std::sqrt(var / double(n) + 1e-5) * w[size_t(c)] + b[size_t(c)];
            }
        want_rm.push_back(0.1 * mean);
        want_rv.push_back(0.9 + 0.1 * var / double(n - 1));
    }
    expect_near(y, {N, C, L}, want);
    expect_near(rm, {C}, want_rm);
    expect_near(rv, {C}, want_rv);
    // evaluation uses them
    Tensor e = batch_norm(make(x, {N, C, L}), rm, rv);
    std::vector<double> want_e(x.size());
    for (size_t i = 0; i < x.size(); ++i) {
        const size_t c = (i / size_t(L)) % size_t(C);
        want_e[i] = (x[i] - want_rm[c]) / std::sqrt(want_rv[c] + 1e-5);
    }
    expect_near(e, {N, C, L}, want_e);
    expect_error([&] { batch_norm(make(x, {N, C, L}), Tensor(), Tensor()); }, {"batch_norm", "needs running_mean"});
    expect_error(
        [&] {
            batch_norm(make(x, {N, C, L}), zeros({3}), ones({3}));
        },
        {"batch_norm", "running_mean must have shape [2]"});
}

TEST(NnFunctional, GroupNorm) {
    const int64_t N = 2, C = 6, L = 5, G = 3;
    auto x = values(N * C * L, 71), w = values(C, 72), b = values(C, 73);
    std::vector<double> want(x.size());
    for (int64_t i = 0; i < N; ++i)
        for (int64_t g = 0; g < G; ++g) {
            const size_t base = size_t((i * C + g * (C / G)) * L), cnt = size_t((C / G) * L);
            double mean = 0, var = 0;
            for (size_t k = 0; k < cnt; ++k) mean += x[base + k];
            mean /= double(cnt);
            for (size_t k = 0; k < cnt; ++k) var += std::pow(x[base + k] - mean, 2);
            var /= double(cnt);
            for (size_t k = 0; k < cnt; ++k) {
                const size_t c = size_t(g * (C / G)) + k / size_t(L);
                want[base + k] = (x[base + k] - mean) / std::sqrt(var + 1e-5) * w[c] + b[c];
            }
        }
    expect_near(group_norm(make(x, {N, C, L}), G, make(w, {C}), make(b, {C})), {N, C, L}, want);
    expect_error([&] { group_norm(make(x, {N, C, L}), 4); }, {"group_norm", "num_groups 4", "6 channels"});
}

// ---- losses ---------------------------------------------------------------------------------------

double log_softmax_at(const std::vector<double>& z, size_t base, size_t stride, int64_t C, int64_t c) {
    double m = -kInf, s = 0;
    for (int64_t k = 0; k < C; ++k) m = std::max(m, z[base + size_t(k) * stride]);
    for (int64_t k = 0; k < C; ++k) s += std::exp(z[base + size_t(k) * stride] - m);
    return z[base + size_t(c) * stride] - m - std::log(s);
}

TEST(NnFunctional, NllLossWeightsIgnoreIndexAndReductions) {
    const int64_t N = 5, C = 4;
    auto lp = values(N * C, 81, -3, 0), w = values(C, 82, 0.5, 2);
    std::vector<int64_t> t = {0, 3, 1, 3, 2};
    const int64_t ignore = 1;
    double num = 0, den = 0;
    std::vector<double> per;
    for (int64_t n = 0; n < N; ++n) {
        const int64_t c = t[size_t(n)];
        const double l = c == ignore ? 0 : -w[size_t(c)] * lp[size_t(n * C + c)];
        per.push_back(l);
        num += l;
        den += c == ignore ? 0 : w[size_t(c)];
    }
    Tensor target = tensor(t, {N});
    NllLossOptions o{.weight = make(w, {C}), .ignore_index = ignore};
    expect_near(nll_loss(make(lp, {N, C}), target, o), {}, {num / den});
    o.reduction = Reduction::sum;
    expect_near(nll_loss(make(lp, {N, C}), target, o), {}, {num});
    o.reduction = Reduction::none;
    expect_near(nll_loss(make(lp, {N, C}), target, o), {N}, per);
    // [N, C, d]: the class axis is 1
    auto lp3 = values(2 * C * 3, 83, -3, 0);
    std::vector<int64_t> t3 = {0, 1, 2, 3, 3, 0};
    double s3 = 0;
    for (int64_t n = 0; n < 2; ++n)
        for (int64_t d = 0; d < 3; ++d) s3 -= lp3[size_t((n * C + t3[size_t(n * 3 + d)]) * 3 + d)];
    expect_near(nll_loss(make(lp3, {2, C, 3}), tensor(t3, {2, 3})), {}, {s3 / 6});
    expect_error(
        [&] {
            nll_loss(make(lp, {N, C}), tensor(t, {N}).reshape({1, N}));
        },
        {"nll_loss", "target of shape [5]", "[1,5]"});
    expect_error(
        [&] {
            nll_loss(make(lp, {N, C}), target, {.reduction = Reduction::batchmean});
        },
        {"nll_loss", "batchmean", "kl_div"});
}

TEST(NnFunctional, CrossEntropyLabelSmoothingAndSoftTargets) {
    const int64_t N = 4, C = 5;
    const double eps = 0.2;
    auto z = values(N * C, 91, -2, 2), w = values(C, 92, 0.5, 2);
    std::vector<int64_t> t = {4, -100, 0, 2};
    // PyTorch: (1 − ε)·nll + ε/C·smooth, both normalised by the weights of the targets kept.
    double nll = 0, smooth = 0, den = 0;
    for (int64_t n = 0; n < N; ++n) {
        const int64_t c = t[size_t(n)];
        if (c == -100) continue;
        nll -= w[size_t(c)] * log_softmax_at(z, size_t(n * C), 1, C, c);
        for (int64_t k = 0; k < C; ++k) smooth -= w[size_t(k)] * log_softmax_at(z, size_t(n * C), 1, C, k);
        den += w[size_t(c)];
    }
    expect_near(cross_entropy(make(z, {N, C}), tensor(t, {N}), {.weight = make(w, {C}), .label_smoothing = eps}), {},
                {(1 - eps) * nll / den + eps / double(C) * smooth / den});
    // without weights, sum
    double s_nll = 0, s_smooth = 0;
    for (int64_t n = 0; n < N; ++n) {
        if (t[size_t(n)] == -100) continue;
        s_nll -= log_softmax_at(z, size_t(n * C), 1, C, t[size_t(n)]);
        for (int64_t k = 0; k < C; ++k) s_smooth -= log_softmax_at(z, size_t(n * C), 1, C, k);
    }
    expect_near(cross_entropy(make(z, {N, C}), tensor(t, {N}), {.reduction = Reduction::sum, .label_smoothing = eps}),
                {}, {(1 - eps) * s_nll + eps / double(C) * s_smooth});
    // class probabilities
    auto p = values(N * C, 93, 0, 1);
    double soft = 0;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < C; ++k) soft -= p[size_t(n * C + k)] * log_softmax_at(z, size_t(n * C), 1, C, k);
    expect_near(cross_entropy(make(z, {N, C}), make(p, {N, C}), CrossEntropyOptions{}), {}, {soft / double(N)});
    expect_error(
        [&] {
            cross_entropy(make(z, {N, C}), tensor(t, {N}), {.label_smoothing = 2});
        },
        {"cross_entropy", "label_smoothing 2"});
}

TEST(NnFunctional, PointwiseLosses) {
    const int64_t n = 12;
    auto x = values(n, 101, -3, 3), y = values(n, 102, 0, 1), p = values(n, 103, 0.01, 0.99),
         pw = values(n, 104, 0.5, 3);
    x[0] = 0;  // a tie of smooth_l1's branches is fine; bce of p = 0 and 1 below clamps the log
    p[1] = 0, p[2] = 1;
    double bce = 0, bcel = 0, l1 = 0, sl1 = 0, mse = 0;
    std::vector<double> bce_per;
    for (int64_t i = 0; i < n; ++i) {
        const size_t k = size_t(i);
        const double v = -(y[k] * std::max(std::log(p[k]), -100.0) + (1 - y[k]) * std::max(std::log(1 - p[k]), -100.0));
        bce += v;
        bce_per.push_back(v);
        const double sig = 1 / (1 + std::exp(-x[k]));
        bcel += -(pw[k] * y[k] * std::log(sig) + (1 - y[k]) * std::log(1 - sig));
        const double d = std::fabs(x[k] - y[k]);
        l1 += d;
        sl1 += d < 0.5 ? 0.5 * d * d / 0.5 : d - 0.25;
        mse += d * d;
    }
    expect_near(binary_cross_entropy(make(p, {3, 4}), make(y, {3, 4})), {}, {bce / double(n)});
    expect_near(binary_cross_entropy(make(p, {3, 4}), make(y, {3, 4}), Tensor(), Reduction::none), {3, 4}, bce_per);
    expect_near(
        binary_cross_entropy_with_logits(make(x, {3, 4}), make(y, {3, 4}), Tensor(), make(pw, {3, 4}), Reduction::sum),
        {}, {bcel});
    expect_near(l1_loss(make(x, {n}), make(y, {n})), {}, {l1 / double(n)});
    expect_near(smooth_l1_loss(make(x, {n}), make(y, {n}), Reduction::sum, 0.5), {}, {sl1});
    expect_near(mse_loss(make(x, {n}), make(y, {n}), Reduction::sum), {}, {mse});
    // large logits stay finite (the stable form)
    expect_near(binary_cross_entropy_with_logits(full({2}, 200.0), zeros({2}), Tensor(), Tensor(), Reduction::none),
                {2}, {200, 200});
    expect_error(
        [&] {
            binary_cross_entropy(make(p, {3, 4}), make(y, {4, 3}));
        },
        {"binary_cross_entropy", "[4,3]", "[3,4]"});
}

TEST(NnFunctional, KlDiv) {
    const int64_t N = 3, C = 4;
    auto x = values(N * C, 111, -3, 0), t = values(N * C, 112, 0, 1);
    t[5] = 0;  // 0·log 0 = 0
    double s = 0, s_log = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        s += t[i] > 0 ? t[i] * (std::log(t[i]) - x[i]) : 0;
        s_log += std::exp(t[i]) * (t[i] - x[i]);
    }
    expect_near(kl_div(make(x, {N, C}), make(t, {N, C})), {}, {s / double(N * C)});
    expect_near(kl_div(make(x, {N, C}), make(t, {N, C}), Reduction::batchmean), {}, {s / double(N)});
    expect_near(kl_div(make(x, {N, C}), make(t, {N, C}), Reduction::sum, true), {}, {s_log});
}

TEST(NnFunctional, GradientsFlowThroughTheComposites) {
    // d/dz of cross_entropy with label smoothing: (softmax(z) − q)/N for the smoothed target q.
    const int64_t N = 2, C = 3;
    const double eps = 0.3;
    auto z = values(N * C, 121);
    std::vector<int64_t> t = {2, 0};
    Tensor zt = make(z, {N, C}).requires_grad_();
    cross_entropy(zt, tensor(t, {N}), {.label_smoothing = eps}).backward();
    std::vector<double> want;
    for (int64_t n = 0; n < N; ++n)
        for (int64_t k = 0; k < C; ++k) {
            const double q = (k == t[size_t(n)] ? 1 - eps : 0) + eps / double(C);
            want.push_back((std::exp(log_softmax_at(z, size_t(n * C), 1, C, k)) - q) / double(N));
        }
    expect_near(zt.grad(), {N, C}, want);
}

// Every function above on tt:0 (when the Tenstorrent client is built): its kernels run on the
// emulated chip and agree with the host's (which the tests above check against plain loops).
TEST(NnFunctional, SameResultsOnTt0) {
    bool have_tt = false;
    for (Device d : zyx::available_devices()) have_tt |= d == Device::tt(0);
    if (!have_tt) GTEST_SKIP() << "no tt:0 in this build";
    const Device tt = Device::tt(0);
    auto x4 = make(values(2 * 4 * 6 * 5, 131), {2, 4, 6, 5});
    auto w = make(values(3 * 4 * 3 * 3, 132), {4, 3, 3, 3}), b = make(values(3, 133), {3});
    auto z = make(values(6 * 5, 134), {6, 5});
    Tensor t = tensor(std::vector<int32_t>{0, 4, 2, -100, 1, 3}, {6}), p = make(values(30, 135, 0.05, 0.95), {6, 5});
    using Fn = std::function<Tensor(Device)>;
    auto on = [&](const Tensor& v, Device d) { return v.to(d); };
    const std::vector<std::pair<const char*, Fn>> cases = {
        {"linear", [&](Device d) { return linear(on(z, d), on(z.transpose(), d).transpose()); }},
        {"conv_transpose2d",
         [&](Device d) { return conv_transpose2d(on(x4, d), on(w, d), on(b, d), {.stride = 2, .padding = 1}); }},
        {"conv1d",
         [&](Device d) {
             return conv1d(on(z, d).unsqueeze(0), on(z, d).reshape({5, 6, 1}), Tensor(), {.padding = 1});
         }},
        {"max_pool2d ceil", [&](Device d) { return max_pool2d(on(x4, d), 2, {.padding = 1, .ceil_mode = true}); }},
        {"avg_pool2d no pad count",
         [&](Device d) {
             return avg_pool2d(on(x4, d), 3,
                               {.stride = 2, .padding = 1, .ceil_mode = true, .count_include_pad = false});
         }},
        {"adaptive_avg_pool2d",
         [&](Device d) {
             return adaptive_avg_pool2d(on(x4, d), {4, 3});
         }},
        {"adaptive_max_pool2d",
         [&](Device d) {
             return adaptive_max_pool2d(on(x4, d), {4, 3});
         }},
        {"interpolate bilinear",
         [&](Device d) {
             return interpolate(on(x4, d), {.size = Size2d{9, 7}, .mode = "bilinear"});
         }},
        {"interpolate nearest",
         [&](Device d) {
             return interpolate(on(x4, d), {.scale_factor = std::pair{1.5, 2.0}});
         }},
        {"group_norm",
         [&](Device d) {
             return group_norm(on(x4, d), 2, on(b.slice(0, 0, 3).pad({{0, 1}}), d));
         }},
        {"batch_norm", [&](Device d) { return batch_norm(on(x4, d), Tensor(), Tensor(), Tensor(), Tensor(), true); }},
        {"cross_entropy",
         [&](Device d) {
             return cross_entropy(on(z, d), on(t, d), {.weight = on(b.pad({{0, 2}}) + 1, d), .label_smoothing = 0.1});
         }},
        {"binary_cross_entropy_with_logits",
         [&](Device d) { return binary_cross_entropy_with_logits(on(z, d), on(p, d)); }},
        {"binary_cross_entropy",
         [&](Device d) { return binary_cross_entropy(on(p, d), on(p, d).flip({0}), Tensor(), Reduction::none); }},
        {"smooth_l1_loss", [&](Device d) { return smooth_l1_loss(on(z, d), on(p, d), Reduction::none, 0.3); }},
        {"kl_div", [&](Device d) { return kl_div(on(z, d).log_softmax(1), on(p, d), Reduction::batchmean); }},
    };
    const uint64_t fallbacks = zyx::runtime_stats().fallbacks;
    for (const auto& [name, f] : cases) {
        SCOPED_TRACE(name);
        Tensor h = f(Device::host()), g = f(tt);
        EXPECT_EQ(g.device(), tt);
        expect_near(g, h.shape(), h.cast(DType::f64).to_vector<double>(), 2e-5);
        EXPECT_EQ(zyx::runtime_stats().fallbacks, fallbacks)
            << "a kernel fell back to the host: " << zyx::runtime_stats().last_fallback;
    }
}

}  // namespace
