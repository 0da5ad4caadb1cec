// Sharded vector add in the style of tt-metal's sharding programming examples: a, b and c are
// height-sharded L1 buffers (ShardedBufferConfig / ShardSpecBuffer), 2 tiles per core on 4 cores.
// On every core, CBs placed on the buffers (CircularBufferConfig::set_globally_allocated_address)
// give the kernels their own shards; nothing crosses the NoC. The compute kernel is
// eltwise_binary's add_tiles. Self-checking against the host's sums.
#include <cmath>
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>

using namespace tt;
using namespace tt::tt_metal;
using namespace tt::constants;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();

    constexpr uint32_t n_cores = 4, tiles_per_core = 2, n_tiles = n_cores * tiles_per_core;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    const CoreRange cores({0, 0}, {n_cores - 1, 0});
    // The vector as a column of tiles: one tile per page, tiles_per_core tiles per shard.
    ShardSpecBuffer shard(CoreRangeSet(cores), {tiles_per_core * TILE_HEIGHT, TILE_WIDTH}, ShardOrientation::ROW_MAJOR,
                          {TILE_HEIGHT, TILE_WIDTH}, {n_tiles, 1});
    ShardedBufferConfig config{.device = device,
                               .size = n_tiles * tile_bytes,
                               .page_size = tile_bytes,
                               .buffer_type = BufferType::L1,
                               .buffer_layout = TensorMemoryLayout::HEIGHT_SHARDED,
                               .shard_parameters = shard};
    auto a = CreateBuffer(config), b = CreateBuffer(config), c = CreateBuffer(config);

    std::vector<bfloat16> va = create_random_vector_of_bfloat16_native(config.size, 2.0f, 7, -1.0f);
    std::vector<bfloat16> vb = create_random_vector_of_bfloat16_native(config.size, 2.0f, 8, -1.0f);
    EnqueueWriteBuffer(cq, a, va.data(), false);
    EnqueueWriteBuffer(cq, b, vb.data(), false);

    const std::pair<uint8_t, std::shared_ptr<Buffer>> cbs[] = {
        {CBIndex::c_0, a}, {CBIndex::c_1, b}, {CBIndex::c_16, c}};
    for (const auto& [index, buffer] : cbs)
        CreateCircularBuffer(program, cores,
                             CircularBufferConfig(tiles_per_core * tile_bytes, {{index, tt::DataFormat::Float16_b}})
                                 .set_page_size(index, tile_bytes)
                                 .set_globally_allocated_address(*buffer));

    const std::string dir = "emulator/compat/examples/";
    CreateKernel(program, dir + "sharded_vector_add/kernels/reader_sharded.cpp", cores,
                 ReaderDataMovementConfig({tiles_per_core}));
    CreateKernel(program, dir + "sharded_vector_add/kernels/writer_sharded.cpp", cores,
                 WriterDataMovementConfig({tiles_per_core}));
    CreateKernel(program, dir + "eltwise_binary/kernels/add_tiles.cpp", cores,
                 ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .compile_args = {tiles_per_core}});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, c, result, true);
    CloseDevice(device);

    // bf16 + bf16 is exact in fp32; the packer rounds it to bf16: within one bf16 ulp.
    size_t bad = result.size() == va.size() ? 0 : 1;
    for (size_t i = 0; i < result.size() && i < va.size(); ++i) {
        float want = float(va[i]) + float(vb[i]);
        if (std::fabs(float(result[i]) - want) > std::ldexp(std::fabs(want), -7) + 1e-6f) {
            if (bad++ < 5) log_error(tt::LogTest, "element {}: got {}, want {}", i, float(result[i]), want);
        }
    }
    log_info(tt::LogTest, "{} of {} elements differ", bad, result.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");
    return bad == 0 ? 0 : 1;
}
