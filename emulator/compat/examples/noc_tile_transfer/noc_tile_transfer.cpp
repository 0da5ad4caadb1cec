// A tile moved from one core's L1 to another's over the NoC, in the style of tt-metal's
// NoC_tile_transfer programming example. Core (0,0) reads the tile from DRAM into its CB c_0 and
// writes it into core (1,0)'s CB c_0 with noc_async_write; two semaphores (CreateSemaphore on both
// cores, get_semaphore in the kernels) carry the handshake: "receiver has room" and "tile has
// landed". Core (1,0) writes the tile back to DRAM. The host checks it bit-exact against the
// tile it wrote; exit code 1 and a message on a mismatch.
#include <cstdio>
#include <cstring>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;
using tt::constants::TILE_HW;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord sender_core = {0, 0}, receiver_core = {1, 0};
    const CoreRange both_cores(sender_core, receiver_core);

    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    InterleavedBufferConfig config{
        .device = device, .size = tile_bytes, .page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    auto src = CreateBuffer(config), dst = CreateBuffer(config);
    std::vector<bfloat16> input = create_random_vector_of_bfloat16_native(tile_bytes, 100.0f, 5, -50.0f);
    EnqueueWriteBuffer(cq, src, input.data(), false);

    // The same CB config on both cores: CB c_0 has the same L1 address on each, which the
    // sender relies on to address the receiver's CB.
    constexpr uint8_t cb = tt::CBIndex::c_0;
    CreateCircularBuffer(
        program, both_cores,
        CircularBufferConfig(tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));
    const uint32_t ready_sem = CreateSemaphore(program, both_cores, 0);
    const uint32_t done_sem = CreateSemaphore(program, both_cores, 0);

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*src).append_to(reader_ct_args);
    TensorAccessorArgs(*dst).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/noc_tile_transfer/kernels/";
    KernelHandle reader =
        CreateKernel(program, dir + "reader_dram_to_cb.cpp", sender_core, ReaderDataMovementConfig(reader_ct_args));
    KernelHandle sender = CreateKernel(program, dir + "sender_l1_to_l1.cpp", sender_core,
                                       WriterDataMovementConfig({ready_sem, done_sem}));
    KernelHandle receiver = CreateKernel(program, dir + "receiver_l1_to_l1.cpp", receiver_core,
                                         ReaderDataMovementConfig({ready_sem, done_sem}));
    KernelHandle writer =
        CreateKernel(program, dir + "writer_cb_to_dram.cpp", receiver_core, WriterDataMovementConfig(writer_ct_args));

    // Kernels address other cores by NoC (physical) coordinates.
    const CoreCoord sender_noc = device->worker_core_from_logical_core(sender_core);
    const CoreCoord receiver_noc = device->worker_core_from_logical_core(receiver_core);
    SetRuntimeArgs(program, reader, sender_core, {src->address()});
    SetRuntimeArgs(program, sender, sender_core, {uint32_t(receiver_noc.x), uint32_t(receiver_noc.y)});
    SetRuntimeArgs(program, receiver, receiver_core, {uint32_t(sender_noc.x), uint32_t(sender_noc.y)});
    SetRuntimeArgs(program, writer, receiver_core, {dst->address()});
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    size_t bad = result.size() == input.size() ? 0 : 1;
    for (size_t i = 0; i < result.size() && i < input.size(); ++i)
        if (result[i].to_uint16() != input[i].to_uint16() && bad++ < 5)
            log_error(tt::LogTest, "element {}: got bits {:#06x}, sent {:#06x}", i, result[i].to_uint16(),
                      input[i].to_uint16());
    log_info(tt::LogTest, "tile core {} -> core {} over the NoC: {} of {} elements differ", sender_core.str(),
             receiver_core.str(), bad, input.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
