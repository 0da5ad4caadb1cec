// Kernel API answers that must match tt-metal's (audit of issue 2): what a kernel reads back
// from the emulator, not a check.
#include "emu_test_util.hpp"

using namespace emu_test;

TEST(EmuKernelApi, GetTileSizeIsTheTileSizeOfTheCbDataFormat) {
    // tt-metal's get_tile_size(cb) is the size of one tile in the CB's data format, not the
    // CB's page size (pages here are smaller or larger than a tile).
    Device dev(preset("wormhole-n150"));
    auto out = dev.buffer_create(64, 64);
    ProgramSpec s;
    s.cbs = {cb(0, 2, one_core(), DataFormat::Float16_b, 64), cb(1, 1, one_core(), DataFormat::Float32, 128),
             cb(2, 1, one_core(), DataFormat::Float16, 4096), cb(3, 1, one_core(), DataFormat::Bfp8_b, 1088)};
    s.kernels = {dm0("sizes", R"(
void kernel_main() {
    volatile uint32_t* v = reinterpret_cast<volatile uint32_t*>(get_write_ptr(0));
    for (uint32_t cb = 0; cb < 4; ++cb) v[cb] = get_tile_size(cb);
    noc_async_write(get_write_ptr(0), get_noc_addr(0, InterleavedAddrGen<true>{get_arg_val<uint32_t>(0), 64}), 64);
    noc_async_write_barrier();
})",
                     one_core())};
    auto p = dev.program_create(s);
    dev.program_set_runtime_args(p, 0, {0, 0}, {out.address});
    auto err = run(dev, p);
    ASSERT_FALSE(err) << err->what();
    uint32_t v[4] = {};
    dev.buffer_read(out.id, v, sizeof v);
    EXPECT_EQ(v[0], 2048u);  // Float16_b
    EXPECT_EQ(v[1], 4096u);  // Float32
    EXPECT_EQ(v[2], 2048u);  // Float16
    EXPECT_EQ(v[3], 1088u);  // Bfp8_b: 1024 mantissas + 64 exponents
}
