// zyx::nn (label `autograd`): parameters and their names, PyTorch's initialisations, each
// layer's forward against a direct computation, train / eval behaviour, checkpoints, device moves,
// and a small model that learns on every device.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "../tensor/tensor_test_env.hpp"
#include "zyx/checkpoint.hpp"
#include "zyx/nn.hpp"

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;
namespace nn = zyx::nn;

std::shared_ptr<nn::Sequential> mlp(zyx::Generator& g) {
    return std::make_shared<nn::Sequential>(std::vector<std::shared_ptr<nn::Module>>{
        std::make_shared<nn::Flatten>(), std::make_shared<nn::Linear>(12, 8, true, g), std::make_shared<nn::ReLU>(),
        std::make_shared<nn::Linear>(8, 3, true, g)});
}

std::string temp_path(const std::string& name) {
    return (std::filesystem::temp_directory_path() / ("zyx-nn-" + std::to_string(::getpid()) + "-" + name)).string();
}

TEST(Nn, ParametersHaveTorchsNamesAndInitialisation) {
    zyx::Generator g(1);
    auto m = mlp(g);
    std::vector<std::string> names;
    for (auto& [name, t] : m->named_parameters()) {
        names.push_back(name);
        EXPECT_TRUE(t.requires_grad()) << name;
    }
    EXPECT_EQ(names, (std::vector<std::string>{"1.weight", "1.bias", "3.weight", "3.bias"}));
    // Linear(12, 8): weight and bias uniform in ±1/√12
    std::vector<float> w = m->named_parameters()[0].second.to_vector<float>();
    ASSERT_EQ(w.size(), 96u);
    float lo = 1, hi = -1;
    for (float v : w) lo = std::min(lo, v), hi = std::max(hi, v);
    const float bound = 1 / std::sqrt(12.f);
    EXPECT_GE(lo, -bound);
    EXPECT_LE(hi, bound);
    EXPECT_LT(lo, -bound * 0.8f);  // spread over the range, not clustered
    EXPECT_GT(hi, bound * 0.8f);
    // the same seed gives the same model
    zyx::Generator g2(1);
    EXPECT_EQ(mlp(g2)->parameters()[0].to_vector<float>(), w);
}

TEST(Nn, LinearComputesXWTransposedPlusB) {
    nn::Linear l(3, 2);
    Tensor x = zyx::tensor({{1.f, 2.f, 3.f}, {-1.f, 0.f, 0.5f}});
    std::vector<float> W = l.weight.to_vector<float>(), b = l.bias.to_vector<float>(), xv = x.to_vector<float>();
    std::vector<float> y = l(x).to_vector<float>();
    for (int n = 0; n < 2; ++n)
        for (int o = 0; o < 2; ++o) {
            float want = b[size_t(o)];
            for (int i = 0; i < 3; ++i) want += xv[size_t(3 * n + i)] * W[size_t(3 * o + i)];
            EXPECT_NEAR(y[size_t(2 * n + o)], want, 1e-5);
        }
}

TEST(Nn, ConvPoolAndLayerNormModulesMatchTheFunctions) {
    zyx::Generator g(3);
    Tensor x = zyx::randn({2, 2, 6, 6}, DType::f32, Device::host(), g);
    nn::Conv2d conv(2, 4, 3, {.padding = 1}, true, g);
    EXPECT_EQ(conv(x).shape(), (zyx::Shape{2, 4, 6, 6}));
    EXPECT_EQ(conv(x).to_vector<float>(), zyx::conv2d(x, conv.weight, conv.bias, {.padding = 1}).to_vector<float>());
    EXPECT_EQ(nn::MaxPool2d(2)(x).to_vector<float>(), zyx::max_pool2d(x, 2).to_vector<float>());
    EXPECT_EQ(nn::AvgPool2d(3, 1)(x).to_vector<float>(), zyx::avg_pool2d(x, 3, 1).to_vector<float>());
    nn::LayerNorm ln({6});
    EXPECT_EQ(ln(x).to_vector<float>(), zyx::layer_norm(x, {6}, ln.weight, ln.bias).to_vector<float>());
    EXPECT_THROW(nn::Conv2d(3, 4, 3, {.groups = 2}), zyx::Error);
}

TEST(Nn, BatchNormUsesBatchStatisticsInTrainingAndRunningOnesInEval) {
    zyx::Generator g(4);
    Tensor x = zyx::randn({4, 2, 3, 3}, DType::f32, Device::host(), g) * 2.f + 1.f;
    nn::BatchNorm2d bn(2);
    std::vector<float> y = bn(x).to_vector<float>(), xv = x.to_vector<float>();
    for (int c = 0; c < 2; ++c) {
        double s = 0, s2 = 0, xs = 0, xs2 = 0;
        int n = 0;
        for (int b = 0; b < 4; ++b)
            for (int i = 0; i < 9; ++i) {
                size_t k = size_t((b * 2 + c) * 9 + i);
                s += y[k], s2 += double(y[k]) * y[k], xs += xv[k], xs2 += double(xv[k]) * xv[k], ++n;
            }
        EXPECT_NEAR(s / n, 0, 1e-5);
        EXPECT_NEAR(s2 / n, 1, 1e-3);
        const double mean = xs / n, var = xs2 / n - mean * mean;
        EXPECT_NEAR(bn.running_mean.to_vector<float>()[size_t(c)], 0.1 * mean, 1e-4);
        EXPECT_NEAR(bn.running_var.to_vector<float>()[size_t(c)], 0.9 + 0.1 * var * n / (n - 1), 1e-4);
    }
    bn.eval();
    std::vector<float> rm = bn.running_mean.to_vector<float>(), rv = bn.running_var.to_vector<float>();
    std::vector<float> e = bn(x).to_vector<float>();
    EXPECT_NEAR(e[0], (xv[0] - rm[0]) / std::sqrt(rv[0] + 1e-5f), 1e-4);
    EXPECT_EQ(bn.running_mean.to_vector<float>(), rm);  // eval leaves them
    EXPECT_EQ(bn.named_buffers().size(), 2u);
}

TEST(Nn, DropoutDropsOnlyWhileTraining) {
    zyx::Generator g(5);
    nn::Dropout d(0.25, g);
    Tensor x = zyx::ones({4000});
    std::vector<float> y = d(x).to_vector<float>();
    int zeros = 0;
    for (float v : y) {
        if (v == 0)
            ++zeros;
        else
            EXPECT_FLOAT_EQ(v, 1 / 0.75f);
    }
    EXPECT_NEAR(zeros / 4000.0, 0.25, 0.03);
    d.eval();
    EXPECT_EQ(d(x).to_vector<float>(), x.to_vector<float>());
    EXPECT_THROW(nn::Dropout(1.0), zyx::Error);
}

TEST(Nn, EmbeddingPicksRowsAndOnlyThoseGetGradients) {
    zyx::Generator g(6);
    nn::Embedding e(5, 3, g);
    Tensor idx = zyx::tensor(std::vector<int32_t>{4, 1, 4}, {3});
    Tensor y = e(idx);
    EXPECT_EQ(y.shape(), (zyx::Shape{3, 3}));
    std::vector<float> w = e.weight.to_vector<float>(), yv = y.to_vector<float>();
    for (int k = 0; k < 3; ++k) EXPECT_EQ(yv[size_t(k)], w[size_t(12 + k)]);
    y.sum().backward();
    std::vector<float> gw = e.weight.grad().to_vector<float>();
    EXPECT_EQ(gw, (std::vector<float>{0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 2, 2, 2}));
}

TEST(Nn, TrainEvalReachesEveryChild) {
    zyx::Generator g(7);
    auto m = mlp(g);
    m->eval();
    for (const auto& c : m->modules()) EXPECT_FALSE(c->training());
    m->train();
    for (const auto& c : m->modules()) EXPECT_TRUE(c->training());
}

TEST(Nn, CheckpointsRoundTripAndRefuseMismatches) {
    zyx::Generator g(8);
    auto a = mlp(g), b = mlp(g);
    const std::string path = temp_path("mlp.safetensors");
    nn::save(*a, path);
    ASSERT_NE(a->parameters()[0].to_vector<float>(), b->parameters()[0].to_vector<float>());
    nn::load(*b, path);
    for (size_t i = 0; i < a->parameters().size(); ++i)
        EXPECT_EQ(a->parameters()[i].to_vector<float>(), b->parameters()[i].to_vector<float>());
    EXPECT_TRUE(b->parameters()[0].requires_grad());
    // A file missing a tensor, with a wrong shape, or with an extra one: refused, module unchanged.
    auto state = a->state();
    const std::vector<float> before = b->parameters()[0].to_vector<float>();
    auto refused = [&](std::vector<std::pair<std::string, Tensor>> tensors, const std::string& phrase) {
        const std::string p = temp_path("bad.safetensors");
        zyx::save_safetensors(p, tensors);
        try {
            nn::load(*b, p);
            ADD_FAILURE() << "no error for " << phrase;
        } catch (const zyx::Error& e) {
            EXPECT_EQ(e.status(), zyx::ErrorStatus::InvalidArgument);
            EXPECT_NE(std::string(e.what()).find(phrase), std::string::npos) << e.what();
        }
        std::filesystem::remove(p);
        EXPECT_EQ(b->parameters()[0].to_vector<float>(), before);
    };
    auto missing = state;
    missing.pop_back();
    refused(missing, "has no tensor '3.bias'");
    auto wrong = state;
    wrong[1].second = zyx::zeros({9});
    refused(wrong, "'1.bias'");
    auto extra = state;
    extra.push_back({"4.weight", zyx::zeros({1})});
    refused(extra, "'4.weight'");
    std::filesystem::remove(path);
}

TEST(Nn, ToMovesParametersAsLeaves) {
    zyx::Generator g(9);
    auto m = mlp(g);
    const std::vector<float> w = m->parameters()[0].to_vector<float>();
    m->to(Device::interpreter());
    for (auto& [name, t] : m->named_parameters()) {
        EXPECT_EQ(t.device(), Device::interpreter()) << name;
        EXPECT_TRUE(t.requires_grad()) << name;
    }
    EXPECT_EQ(m->parameters()[0].to_vector<float>(), w);
}

// A fixed-seed problem: 3 classes of 12-feature points; plain SGD steps through assign.
std::vector<float> train_on(Device d, int steps, float* first_loss, float* last_loss) {
    zyx::Generator g(10);
    auto m = mlp(g);
    m->to(d);
    Tensor x = zyx::randn({48, 3, 4}, DType::f32, Device::host(), g);
    std::vector<int32_t> labels(48);
    std::vector<float> xv = x.to_vector<float>();
    for (size_t n = 0; n < 48; ++n) labels[n] = xv[n * 12] > 0.5f ? 2 : xv[n * 12 + 1] > 0 ? 1 : 0;
    x = x.to(d);
    Tensor y = zyx::tensor(labels, {48}, DType::i32, d);
    for (int s = 0; s < steps; ++s) {
        Tensor loss = zyx::cross_entropy((*m)(x), y);
        m->zero_grad();
        loss.backward();
        {
            zyx::NoGradGuard off;
            for (Tensor& p : m->parameters()) p.assign(p - p.grad() * 0.5f);
        }
        float l = loss.item<float>();
        if (s == 0) *first_loss = l;
        *last_loss = l;
    }
    return m->parameters()[0].to_vector<float>();
}

TEST(Nn, ASmallModelLearnsOnEveryDevice) {
    std::vector<Device> devices = {Device::host(), Device::interpreter()};
    for (const Device& d : zyx::available_devices())
        if (d == Device::tt(0)) devices.push_back(d);
    for (const Device& d : devices) {
        float first = 0, last = 0;
        train_on(d, 30, &first, &last);
        EXPECT_LT(last, first * 0.6f) << d.str();
    }
    // the same seed gives the same weights twice on the host
    float a, b;
    EXPECT_EQ(train_on(Device::host(), 5, &a, &b), train_on(Device::host(), 5, &a, &b));
}

}  // namespace
