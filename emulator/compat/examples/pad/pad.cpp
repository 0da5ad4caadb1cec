// Padding a row-major tensor on device, in the style of tt-metal's pad programming example: a
// src_rows × src_cols bf16 tensor (row-major, one row per DRAM page) becomes a dst_rows ×
// dst_cols tensor, the new columns on the right and rows at the bottom holding pad_value. The
// rows of the output are divided over the cores with split_work_to_cores; on each core a reader
// assembles its rows in a CB from src and from a one-row DRAM buffer of the pad value, a writer
// stores them. Nothing is computed, so the host checks the result bit-exact against its own
// padded copy; exit code 1 and a message on a mismatch.
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>
#include <tt-metalium/work_split.hpp>

using namespace tt;
using namespace tt::tt_metal;

int main() {
    IDevice* device = CreateDevice(0);
    CommandQueue& cq = device->command_queue();
    Program program = CreateProgram();

    // Row sizes in bytes are multiples of 32 (DRAM reads land at 32-byte aligned L1 offsets).
    constexpr uint32_t src_rows = 100, src_cols = 48, dst_rows = 128, dst_cols = 80;
    constexpr uint32_t src_row_bytes = src_cols * sizeof(bfloat16), dst_row_bytes = dst_cols * sizeof(bfloat16);
    static_assert(src_row_bytes % 32 == 0 && dst_row_bytes % 32 == 0 && src_cols <= dst_cols && src_rows <= dst_rows);
    const bfloat16 pad_value(-7.25f);

    auto make_buffer = [&](uint32_t rows, uint32_t row_bytes) {
        return CreateBuffer(InterleavedBufferConfig{
            .device = device, .size = rows * row_bytes, .page_size = row_bytes, .buffer_type = BufferType::DRAM});
    };
    auto src = make_buffer(src_rows, src_row_bytes), dst = make_buffer(dst_rows, dst_row_bytes);
    auto pad_buf = make_buffer(1, dst_row_bytes);

    std::vector<bfloat16> input =
        create_random_vector_of_bfloat16_native(size_t(src_rows) * src_row_bytes, 100.0f, 3, -50.0f);
    std::vector<bfloat16> pad_row(dst_cols, pad_value);
    EnqueueWriteBuffer(cq, src, input.data(), false);
    EnqueueWriteBuffer(cq, pad_buf, pad_row.data(), false);

    const CoreCoord grid = device->compute_with_storage_grid_size();
    const auto [n_cores, all_cores, group_1, group_2, rows_per_core_1, rows_per_core_2] =
        split_work_to_cores(grid, dst_rows);
    CreateCircularBuffer(program, all_cores,
                         CircularBufferConfig(2 * dst_row_bytes, {{tt::CBIndex::c_0, tt::DataFormat::Float16_b}})
                             .set_page_size(tt::CBIndex::c_0, dst_row_bytes));

    std::vector<uint32_t> reader_ct_args, writer_ct_args;
    TensorAccessorArgs(*src).append_to(reader_ct_args);
    TensorAccessorArgs(*pad_buf).append_to(reader_ct_args);
    TensorAccessorArgs(*dst).append_to(writer_ct_args);
    const std::string dir = "emulator/compat/examples/pad/kernels/";
    KernelHandle reader = CreateKernel(program, dir + "pad_reader_rows_rm_interleaved.cpp", all_cores,
                                       ReaderDataMovementConfig(reader_ct_args));
    KernelHandle writer = CreateKernel(program, dir + "pad_writer_rows_rm_interleaved.cpp", all_cores,
                                       WriterDataMovementConfig(writer_ct_args));

    uint32_t start = 0;
    for (const CoreCoord& core : corerange_to_cores(all_cores, std::nullopt, false)) {
        const uint32_t n_rows = group_1.contains(core) ? rows_per_core_1 : rows_per_core_2;
        SetRuntimeArgs(program, reader, core,
                       {src->address(), pad_buf->address(), src_rows, src_row_bytes, dst_row_bytes, start, n_rows});
        SetRuntimeArgs(program, writer, core, {dst->address(), dst_row_bytes, start, n_rows});
        start += n_rows;
    }
    TT_FATAL(start == dst_rows, "the cores cover {} rows, want {}", start, dst_rows);
    EnqueueProgram(cq, program, false);
    Finish(cq);

    std::vector<bfloat16> result;
    EnqueueReadBuffer(cq, dst, result, true);
    CloseDevice(device);

    const bool size_ok = result.size() == size_t(dst_rows) * dst_cols;
    size_t bad = size_ok ? 0 : 1;
    for (uint32_t r = 0; size_ok && r < dst_rows; ++r)
        for (uint32_t c = 0; c < dst_cols; ++c) {
            const bfloat16 want = r < src_rows && c < src_cols ? input[size_t(r) * src_cols + c] : pad_value;
            const bfloat16 got = result[size_t(r) * dst_cols + c];
            if (got.to_uint16() != want.to_uint16() && bad++ < 5)
                log_error(tt::LogTest, "({}, {}): got {}, want {}", r, c, float(got), float(want));
        }
    log_info(tt::LogTest, "{}x{} padded to {}x{} with {} on {} cores: {} of {} elements differ", src_rows, src_cols,
             dst_rows, dst_cols, float(pad_value), n_cores, bad, result.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print
    return bad == 0 ? 0 : 1;
}
