// Tensor API benchmarks on Device::host(): what the lazy graph and the fusing scheduler cost and
// save. Each line prints zyx's median time beside a baseline measured in the same run:
//
//   overhead_add_4        x + y on 4 floats, end to end (graph, plan, kernel build, cache lookup,
//                         launch) vs launching the same compiled program directly through the
//                         backend — what the graph and scheduler add per realize()
//   chain8_fused_4m       8 elementwise ops on 4M floats realized once (one kernel)
//     vs chain8_eager_4m  the same ops realized one by one (8 kernels, 8 buffers): fusion's gain
//     vs plain loop       one hand-written pass, and memcpy of 4M floats (the bandwidth floor)
//   softmax_1024          rows of a 1024×1024 matrix vs a hand-written three-pass loop
//   softmax_axis0_*       softmax(0) vs softmax(1) of the same matrix (1024², 256², 100×8)
//   sum_rows_4m           x.sum(1) of 2048×2048 vs a plain loop
//
// Usage: build/bin/bench_tensor   (ZYX_DEBUG=sched shows the kernels)
#include <zyx/tensor.hpp>

#include "graph/graph.hpp"
#include "schedule/devices.hpp"
#include "schedule/scheduler.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

namespace {

// Median wall time of fn() in ms, after one warm-up call, over at least 5 calls and ~0.5 s.
double median_ms(const std::function<void()>& fn) {
    fn();
    std::vector<double> t;
    auto start = std::chrono::steady_clock::now();
    while (t.size() < 5 ||
           (t.size() < 500 && std::chrono::steady_clock::now() - start < std::chrono::milliseconds(500))) {
        auto a = std::chrono::steady_clock::now();
        fn();
        t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
    }
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

void line(const char* name, double zyx_ms, const char* baseline, double base_ms) {
    std::printf("%-18s zyx %9.4f ms   %-16s %9.4f ms   ratio %6.2fx\n", name, zyx_ms, baseline, base_ms,
                zyx_ms / base_ms);
}

volatile float g_sink;

}  // namespace

int main() {
    using zyx::Tensor;
    zyx::Generator gen(1);

    {  // fixed cost of one realize()
        Tensor x = zyx::uniform({4}, -1, 1, zyx::DType::f32, zyx::Device::host(), gen).realize();
        Tensor y = zyx::uniform({4}, -1, 1, zyx::DType::f32, zyx::Device::host(), gen).realize();
        double z = median_ms([&] { (x + y).realize(); });
        // The same program launched directly on the same buffers.
        zyx::sched::DeviceSlot& slot = zyx::sched::device_slot(zyx::Device::host());
        zyx::backend::ProgramId program = slot.programs.at(zyx::sched::recent_kernels().back().kernel);
        zyx::backend::BufferId out = slot.pool->allocate(16);
        zyx::backend::BufferId ids[] = {x.node()->buffer->id, y.node()->buffer->id, out};
        double base = median_ms([&] { slot.backend->launch(program, ids, {}, {}); });
        slot.pool->release(out);
        line("overhead_add_4", z, "direct launch", base);
    }

    const int64_t n = 4 << 20;
    Tensor x = zyx::uniform({n}, -1, 1, zyx::DType::f32, zyx::Device::host(), gen).realize();
    std::vector<float> xv = x.to_vector<float>();
    std::vector<float> out(static_cast<size_t>(n));
    auto chain = [](const Tensor& t, bool eager) {
        Tensor y = t;
        auto step = [&](Tensor v) {
            y = v;
            if (eager) y.realize();
        };
        step(y * 1.5f);
        step(y + 0.25f);
        step(y.abs());
        step(y.sqrt());
        step(y * y);
        step(y - 1.f);
        step(y.relu());
        step(y * 2.f);
        return y;
    };
    double fused = median_ms([&] { chain(x, false).realize(); });
    double eager = median_ms([&] { chain(x, true).realize(); });
    double loop = median_ms([&] {
        for (size_t i = 0; i < xv.size(); ++i) {
            float y = std::sqrt(std::fabs(xv[i] * 1.5f + 0.25f));
            y = y * y - 1.f;
            out[i] = (y < 0 ? 0 : y) * 2.f;
        }
        g_sink = out[7];
    });
    double copy = median_ms([&] {
        std::memcpy(out.data(), xv.data(), xv.size() * 4);
        g_sink = out[7];
    });
    line("chain8_fused_4m", fused, "eager (8 kern.)", eager);
    line("chain8_fused_4m", fused, "plain loop", loop);
    line("chain8_fused_4m", fused, "memcpy", copy);

    {
        const int64_t r = 1024;
        Tensor m = zyx::uniform({r, r}, -4, 4, zyx::DType::f32, zyx::Device::host(), gen).realize();
        std::vector<float> mv = m.to_vector<float>(), o(mv.size());
        double z = median_ms([&] { m.softmax(1).realize(); });
        double base = median_ms([&] {
            for (int64_t i = 0; i < r; ++i) {
                const float* row = mv.data() + i * r;
                float* dst = o.data() + i * r;
                float mx = -INFINITY, s = 0;
                for (int64_t j = 0; j < r; ++j) mx = std::max(mx, row[j]);
                for (int64_t j = 0; j < r; ++j) s += (dst[j] = std::exp(row[j] - mx));
                for (int64_t j = 0; j < r; ++j) dst[j] /= s;
            }
            g_sink = o[5];
        });
        line("softmax_1024", z, "plain loop", base);
    }
    // softmax over axis 0 (the host hoists the column sums out of the consumer's loop) against
    // softmax over axis 1 of the same matrix: two kernels each; goal within 2x
    for (int64_t r : {1024, 256}) {
        Tensor m = zyx::uniform({r, r}, -4, 4, zyx::DType::f32, zyx::Device::host(), gen).realize();
        double axis0 = median_ms([&] { m.softmax(0).realize(); });
        double axis1 = median_ms([&] { m.softmax(1).realize(); });
        line(r == 1024 ? "softmax_axis0_1024" : "softmax_axis0_256", axis0, "axis 1", axis1);
    }
    {
        Tensor m = zyx::uniform({100, 8}, -4, 4, zyx::DType::f32, zyx::Device::host(), gen).realize();
        double axis0 = median_ms([&] { m.softmax(0).realize(); });
        double axis1 = median_ms([&] { m.softmax(1).realize(); });
        line("softmax_axis0_100x8", axis0, "axis 1", axis1);
    }
    {
        const int64_t r = 2048;
        Tensor m = zyx::uniform({r, r}, -1, 1, zyx::DType::f32, zyx::Device::host(), gen).realize();
        std::vector<float> mv = m.to_vector<float>();
        std::vector<float> o(static_cast<size_t>(r));
        double z = median_ms([&] { m.sum(1).realize(); });
        double base = median_ms([&] {
            for (int64_t i = 0; i < r; ++i) {
                float s = 0;
                for (int64_t j = 0; j < r; ++j) s += mv[size_t(i * r + j)];
                o[size_t(i)] = s;
            }
            g_sink = o[5];
        });
        line("sum_rows_4m", z, "plain loop", base);
    }
    return 0;
}
