// An application built against an installed zyx (tests/package/run.sh): it includes every public
// header, computes on the host and on tt:0 (the emulated chip, through the installed runtime),
// and prints the results for the test to compare with numbers it computes itself.
//
//   consumer <rows> <cols>
//
// With k = i * cols + j: a[i][j] = (k % 17) / 4 and b[i][j] = k % 5 - 2, as f32. Printed, for
// each device: "<device> sum <(a + b).sum()> row0 <(a * b).sum(1)[0]> last <(a * b).sum(1)[rows-1]>".
#include <zyx/checkpoint.hpp>
#include <zyx/data.hpp>
#include <zyx/device.hpp>
#include <zyx/nn.hpp>
#include <zyx/optim.hpp>
#include <zyx/tensor.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

static_assert(__cplusplus >= 202002L, "zyx needs C++20 (zyx::zyx carries the requirement)");

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: consumer <rows> <cols>\n");
        return 2;
    }
    const int64_t rows = std::atoll(argv[1]), cols = std::atoll(argv[2]);
    std::vector<float> a(size_t(rows * cols)), b(a.size());
    for (int64_t k = 0; k < rows * cols; ++k) {
        a[size_t(k)] = float(k % 17) / 4;
        b[size_t(k)] = float(k % 5 - 2);
    }
    try {
        for (zyx::Device device : {zyx::Device::host(), zyx::Device::tt(0)}) {
            zyx::Tensor x = zyx::tensor(a, {rows, cols}).to(device);
            zyx::Tensor y = zyx::tensor(b, {rows, cols}).to(device);
            float sum = (x + y).sum().item<float>();
            std::vector<float> row = (x * y).sum(1).to_vector<float>();
            std::printf("%s sum %.9g row0 %.9g last %.9g\n", device.str().c_str(), double(sum), double(row.front()),
                        double(row.back()));
        }
    } catch (const zyx::Error& e) {
        std::fprintf(stderr, "consumer: %s\n", e.what());
        return 1;
    }
    return 0;
}
