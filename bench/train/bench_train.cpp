// Training benchmarks (issue 11). Prints one line per case: "<name> <value> <unit>".
//   step_host      one SGD training step of an MLP 784-128-10, batch 64, f32, on the host:
//                  forward, cross_entropy, backward, update (median ms, warm)
//   epoch_host     one Fashion-MNIST epoch of the demo's MLP (784-256-10, Adam 1e-3, batch 64) on
//                  the host (s; the programs compiled by a short warm-up run first)
//   epoch_tt       the same epoch on tt:0, the emulated chip (s), from a cold start of this
//                  process (programs already in the kernel cache are loaded, others compiled),
//   compile_tt     and the seconds of it spent in batches that compiled programs
// bench/train/run runs this and PyTorch side by side and prints the ratios.
//   build/bin/bench_train [step|epoch|tt]
#include <zyx/data.hpp>
#include <zyx/nn.hpp>
#include <zyx/optim.hpp>
#include <zyx/tensor.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

namespace {

using zyx::Device;
using zyx::DType;
using zyx::Tensor;
using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::shared_ptr<zyx::nn::Sequential> mlp(int64_t hidden, zyx::Generator& g) {
    return std::make_shared<zyx::nn::Sequential>(std::vector<std::shared_ptr<zyx::nn::Module>>{
        std::make_shared<zyx::nn::Linear>(784, hidden, true, g), std::make_shared<zyx::nn::ReLU>(),
        std::make_shared<zyx::nn::Linear>(hidden, 10, true, g)});
}

void bench_step() {
    zyx::Generator g(0);
    auto model = mlp(128, g);
    zyx::optim::SGD opt(model->parameters(), 0.01);
    Tensor x = zyx::randn({64, 784}, DType::f32, Device::host(), g).realize();
    Tensor y = zyx::randint(0, 10, {64}, DType::i32, Device::host(), g).realize();
    auto step = [&] {
        Tensor loss = zyx::cross_entropy((*model)(x), y);
        opt.zero_grad();
        loss.backward();
        opt.step();
    };
    for (int i = 0; i < 5; ++i) step();  // compiles
    std::vector<double> t;
    const auto start = Clock::now();
    while (t.size() < 20 || (t.size() < 500 && since(start) < 2.0)) {
        const auto a = Clock::now();
        step();
        t.push_back(since(a) * 1e3);
    }
    std::sort(t.begin(), t.end());
    std::printf("step_host %.4f ms\n", t[t.size() / 2]);
}

// One epoch as the demo trains it (without the per-batch accuracy): seconds, and the seconds of
// the batches during which programs were compiled.
double epoch(Device d, int64_t max_batches, double* compile_seconds) {
    zyx::data::FashionMnist data = zyx::data::load_fashion_mnist();
    Tensor x = ((data.train_images.cast(DType::f32) / 255.0 - 0.2860) / 0.3530).reshape({60000, 784}).realize();
    Tensor y = data.train_labels.cast(DType::i32).realize();
    zyx::Generator g(0);
    auto model = mlp(256, g);
    model->to(d);
    zyx::optim::Adam opt(model->parameters(), 1e-3);
    zyx::data::DataLoader loader({x, y}, 64, true, 0, false, d);
    double compiling = 0;
    int64_t b = 0;
    const auto start = Clock::now();
    for (const auto& batch : loader) {
        if (b++ == max_batches) break;
        const uint64_t compiles = zyx::runtime_stats().compiles;
        const auto t = Clock::now();
        Tensor loss = zyx::cross_entropy((*model)(batch[0]), batch[1]);
        loss.realize();
        opt.zero_grad();
        loss.backward();
        opt.step();
        if (zyx::runtime_stats().compiles != compiles) compiling += since(t);
    }
    if (compile_seconds) *compile_seconds = compiling;
    return since(start);
}

}  // namespace

int main(int argc, char** argv) {
    const char* only = argc > 1 ? argv[1] : "";
    try {
        if (!*only || !std::strcmp(only, "step")) bench_step();
        if (!*only || !std::strcmp(only, "epoch")) {
            epoch(Device::host(), 5, nullptr);  // compiles
            std::printf("epoch_host %.3f s\n", epoch(Device::host(), -1, nullptr));
        }
        if (!*only || !std::strcmp(only, "tt")) {
            bool have_tt = false;
            for (const Device& d : zyx::available_devices()) have_tt |= d == Device::tt(0);
            if (!have_tt) {
                std::printf("epoch_tt unavailable (tt:0 cannot run here)\n");
                return 0;
            }
            double compile = 0;
            std::printf("epoch_tt %.3f s\n", epoch(Device::tt(0), -1, &compile));
            std::printf("compile_tt %.3f s\n", compile);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_train: %s\n", e.what());
        return 1;
    }
    return 0;
}
