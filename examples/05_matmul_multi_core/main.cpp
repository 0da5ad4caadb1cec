// Example 05: the matmul of example 04 spread over the whole grid (8x8 cores of a Wormhole
// n150), C = A·B with A 512x256 and B 256x512.
//
// Multi-core is a host-side decision: the same three kernels run on every core, and each core's
// runtime args give it its own contiguous range of output tiles (256 tiles, 4 per core). Cores
// never talk to each other here; each reads what it needs from DRAM through the NoC.
#include "matmul_example.hpp"

int main() {
    return example::run_example([] {
        const auto& spec = zyx::emu::preset("wormhole-n150");
        return example::matmul_example("matmul_multi_core", spec, {{0, 0}, {spec.grid_x - 1, spec.grid_y - 1}}, 512,
                                       256, 512);
    });
}
