// Example 01: add two integers on a data-movement core.
//
// The smallest TT-Metalium program: one kernel on one RISC-V (BRISC) of one Tensix core. It
// shows the parts every program has:
//  - DRAM buffers the host fills and reads back. A buffer is interleaved: page i lives in DRAM
//    bank i % banks, at the same address in every bank; kernels get that address as a runtime
//    arg.
//  - L1, the core's own 1.5 MB SRAM. Kernels cannot touch DRAM directly: they move data between
//    DRAM and L1 with the NoC (noc_async_read / noc_async_write), which is asynchronous until a
//    barrier.
//  - Circular buffers reserve L1 space; here two one-page CBs serve as scratch memory.
//  - Runtime args (get_arg_val) are per core, set by the host before each launch.
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("wormhole-n150"));
        CoreRangeSet core{CoreRange{{0, 0}, {0, 0}}};

        // One 32 B page per buffer (the DRAM alignment on Wormhole).
        uint32_t a_val[8] = {14}, b_val[8] = {28}, sum[8] = {0};
        Buffer a = dev.buffer_create(32, 32), b = dev.buffer_create(32, 32), s = dev.buffer_create(32, 32);
        dev.buffer_write(a.id, a_val, 32);
        dev.buffer_write(b.id, b_val, 32);

        ProgramSpec spec;
        spec.cbs = {{0, DataFormat::Float16_b, 32, 1, core, {}, {}}, {1, DataFormat::Float16_b, 32, 1, core, {}, {}}};
        spec.kernels = {kernel("add_integers.cpp", KernelKind::DataMovement0, core)};
        ProgramId prog = dev.program_create(spec);
        dev.program_set_runtime_args(prog, 0, {0, 0}, {a.address, b.address, s.address});
        dev.program_launch(prog);
        dev.wait();

        dev.buffer_read(s.id, sum, 32);
        std::printf("%u + %u = %u\n", a_val[0], b_val[0], sum[0]);
        return check("add_integers", {float(sum[0])}, {float(a_val[0] + b_val[0])}, 0, 0);
    });
}
