// Step 3: the protocol program of a plan — three kernels, their circular buffers, runtime-arg
// layouts and the compute configuration every generated program uses:
//   fp32_dest_acc_en  DST holds f32 (every value is computed in f32; docs/numerics.md)
//   DST sync          half sync (two sections of 4 f32 tiles: MATH fills one while PACK drains
//                     the other) when the compute body fits in 4 tiles; else full sync (one
//                     section of 8, MATH and PACK taking turns)
//   HiFi4             full-precision multiplies (matmul_tiles; SFPU math does not use it)
#include "backend/tenstorrent/codegen/emit.hpp"
#include "backend/tenstorrent/tile_layout.hpp"

namespace zyx::tt::codegen {

using protocol::ArgSource;
using protocol::RuntimeArg;

protocol::Program make_program(const Plan& p) {
    const kernel::Kernel& k = p.kernel;
    protocol::Program prog;
    prog.grid = p.grid;
    prog.num_inputs = uint32_t(k.inputs.size());
    prog.num_outputs = 1;
    prog.num_scalars = uint32_t(k.scalars.size());
    prog.fp32_dest_acc = true;
    prog.math_fidelity = protocol::MathFidelity::HiFi4;

    auto cb = [&](uint32_t index, protocol::DataFormat f, uint32_t pages) {
        prog.cbs.push_back(protocol::CircularBuffer{index, f, tile_size_bytes(f), pages});
    };
    for (const Stream& s : p.streams) cb(s.cb, s.format, kStreamPages);
    for (const Stream& s : p.streams)
        if (s.read == Read::gather) cb(s.scratch_cb, s.format, kGatherCacheTiles);
    for (const Stream& s : p.streams)
        for (uint32_t c : {s.lo_cb, s.lo2_cb})
            if (c != UINT32_MAX) cb(c, protocol::DataFormat::Float32, 2);
    if (p.mask_cb != UINT32_MAX) cb(p.mask_cb, protocol::DataFormat::Float16_b, 2);
    cb(p.out_cb, p.out_cb_format, kStreamPages);
    if (p.out_staging_cb != UINT32_MAX) cb(p.out_staging_cb, p.out_format, 1);
    // The compute kernel copy_tiles every stream into DST, except matmul's operands, which the
    // FPU reads: f32 streams unpack straight into DST (exact, not TF32: docs/numerics.md), and
    // matmul's keep the Default mode the FPU needs.
    for (size_t i = 0; i < p.streams.size(); ++i) {
        const bool fpu = p.skeleton == Skeleton::matmul && (int(i) == p.matmul_a || int(i) == p.matmul_b);
        if (p.streams[i].format == protocol::DataFormat::Float32 && !fpu)
            prog.unpack_to_dest_fp32.push_back(p.streams[i].cb);
    }

    const std::vector<RuntimeArg> split = {{ArgSource::core_index, 0}, {ArgSource::num_cores, 0}};
    protocol::Kernel reader;
    reader.name = "reader";
    reader.kind = protocol::KernelKind::data_movement_1;
    reader.source = reader_source(p);
    reader.runtime_args = split;
    for (size_t i = 0; i < k.inputs.size(); ++i) {
        reader.runtime_args.push_back({ArgSource::input_address, uint32_t(i)});
        // TensorAccessorArgs of an interleaved DRAM buffer: [ArgConfig IsDram, aligned page].
        reader.compile_args.push_back(2);
        reader.compile_args.push_back(tile_bytes(k.inputs[i].dtype));
    }
    protocol::Kernel compute;
    compute.name = "compute";
    compute.kind = protocol::KernelKind::compute;
    // Half sync when the body fits in 4 DST tiles: the slot allocator refuses a fifth.
    Plan half = p;
    half.dst_tiles = 4;
    try {
        compute.source = compute_source(half);
        prog.dst_full_sync = false;
    } catch (const Error& e) {
        if (e.status() != ErrorStatus::Unsupported) throw;
        compute.source = compute_source(p);
        prog.dst_full_sync = true;
    }
    compute.runtime_args = split;
    for (size_t s = 0; s < k.scalars.size(); ++s) compute.runtime_args.push_back({ArgSource::scalar, uint32_t(s)});
    protocol::Kernel writer;
    writer.name = "writer";
    writer.kind = protocol::KernelKind::data_movement_0;
    writer.source = writer_source(p);
    writer.runtime_args = split;
    writer.runtime_args.push_back({ArgSource::output_address, 0});
    writer.compile_args = {2, tile_size_bytes(p.out_format)};  // TensorAccessorArgs: [IsDram, page]
    prog.kernels = {std::move(reader), std::move(compute), std::move(writer)};
    return prog;
}

}  // namespace zyx::tt::codegen
