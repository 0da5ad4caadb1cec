// Example 09: vector addition on height-sharded L1 buffers.
//
// Examples 02 and 05 keep tensors in DRAM and have a reader copy them into L1. When a tensor
// already lives in L1, split over the cores that use it, there is nothing to copy: the buffer is
// *sharded*. Here a, b and c are bf16 vectors of 96 tiles, height-sharded over 8 cores (a 2x4
// grid): the tensor is 96 tile-rows of one tile, core i holds tile-rows 12i … 12i+11 in its own
// L1. Each circular buffer is placed on a shard (tt-metal's set_globally_allocated_address:
// CircularBufferSpec::buffer here), so cb 0 / cb 1 *are* the core's shards of a and b and cb 16
// is its shard of c. The reader and writer only do the CB hand-over; compute adds tile by tile
// and packs straight into c's shard. The host reads c back and checks it bit for bit against a
// bf16 addition on the host.
#include <cstdio>

#include "example_util.hpp"

using namespace example;

int main() {
    return run_example([] {
        Device dev(preset("wormhole-n150"));
        const uint32_t cores_x = 4, cores_y = 2, ncores = cores_x * cores_y, tiles_per_core = 12;
        const uint32_t n_tiles = ncores * tiles_per_core, tile_bytes = 2048;
        CoreRangeSet cores{CoreRange{{0, 0}, {cores_x - 1, cores_y - 1}}};

        std::vector<float> a(size_t(n_tiles) * 1024), b(a.size()), want(a.size());
        std::vector<uint16_t> a16(a.size()), b16(a.size()), c16(a.size());
        for (size_t i = 0; i < a.size(); ++i) {
            a[i] = bf16_round(5.0f * std::sin(0.013f * float(i))), b[i] = bf16_round(std::cos(0.0021f * float(i)));
            a16[i] = bf16(a[i]), b16[i] = bf16(b[i]);
            want[i] = bf16_round(a[i] + b[i]);  // the FPU add, then the packer's rounding to bf16
        }

        // Height sharding: a tensor of n_tiles x 1 tile pages, shards of tiles_per_core x 1 tiles,
        // shard i on the i-th core of the range, row by row.
        BufferConfig cfg;
        cfg.size = uint64_t(n_tiles) * tile_bytes;
        cfg.page_bytes = tile_bytes;
        cfg.type = BufferType::L1;
        cfg.layout = BufferLayout::HeightSharded;
        cfg.shard.cores = cores;
        cfg.shard.shard_shape = {tiles_per_core * 32, 32};
        cfg.shard.orientation = ShardOrientation::RowMajor;
        cfg.shard.page_shape = {32, 32};
        cfg.shard.tensor_shape_in_pages = {n_tiles, 1};
        Buffer A = dev.buffer_create(cfg), B = dev.buffer_create(cfg), C = dev.buffer_create(cfg);
        dev.buffer_write(A.id, a16.data(), a16.size() * 2);
        dev.buffer_write(B.id, b16.data(), b16.size() * 2);

        ProgramSpec spec;
        spec.cbs = {{0, DataFormat::Float16_b, tile_bytes, tiles_per_core, cores, {}, A.id},
                    {1, DataFormat::Float16_b, tile_bytes, tiles_per_core, cores, {}, B.id},
                    {16, DataFormat::Float16_b, tile_bytes, tiles_per_core, cores, {}, C.id}};
        spec.kernels = {kernel("reader_shard.cpp", KernelKind::DataMovement1, cores),
                        kernel("writer_shard.cpp", KernelKind::DataMovement0, cores),
                        kernel("compute_add_shard.cpp", KernelKind::Compute, cores)};
        ProgramId prog = dev.program_create(spec);
        for (uint32_t k = 0; k < 3; ++k) dev.program_set_common_runtime_args(prog, k, {tiles_per_core});
        dev.program_launch(prog);
        dev.wait();

        // Where the shards went (the first and last page), for the reader of this example.
        PageLocation first = dev.buffer_page_location(C.id, 0), last = dev.buffer_page_location(C.id, n_tiles - 1);
        std::printf("c: %u tiles, page 0 on core (%u,%u), page %u on core (%u,%u), L1 address 0x%x\n", n_tiles,
                    first.core.x, first.core.y, n_tiles - 1, last.core.x, last.core.y, C.address);
        dev.buffer_read(C.id, c16.data(), c16.size() * 2);
        std::vector<float> got(c16.size());
        for (size_t i = 0; i < got.size(); ++i) got[i] = from_bf16(c16[i]);
        return check("sharded_vector_add (a + b, bf16, bit-exact)", got, want, 0, 0);
    });
}
