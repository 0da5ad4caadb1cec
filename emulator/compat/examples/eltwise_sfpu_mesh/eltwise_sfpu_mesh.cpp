// exp of a bf16 tensor of n_tiles 32×32 tiles on one Tensix core, in the MeshDevice style of
// tt-metal's current programming examples: a unit mesh, replicated MeshBuffers, a MeshWorkload
// over the whole mesh, the mesh command queue. A reader (NCRISC) streams tiles into CB c_0, the
// compute kernel copies each into DST and applies exp on the SFPU into c_16, a writer (BRISC)
// drains c_16 to DRAM. The host checks every element against std::exp (rounded to bf16) and
// returns non-zero on a mismatch.
#include <cmath>
#include <cstdio>

#include <tt-metalium/bfloat16.hpp>
#include <tt-metalium/constants.hpp>
#include <tt-metalium/distributed.hpp>
#include <tt-metalium/host_api.hpp>
#include <tt-metalium/mesh_buffer.hpp>
#include <tt-metalium/mesh_device.hpp>
#include <tt-metalium/tensor_accessor_args.hpp>

using namespace tt;
using namespace tt::tt_metal;
using tt::constants::TILE_HW;

int main() {
    std::shared_ptr<distributed::MeshDevice> mesh = distributed::MeshDevice::create_unit_mesh(0);
    distributed::MeshCommandQueue& cq = mesh->mesh_command_queue();
    Program program = CreateProgram();
    constexpr CoreCoord core = {0, 0};

    constexpr uint32_t n_tiles = 8;
    constexpr uint32_t tile_bytes = sizeof(bfloat16) * TILE_HW;
    distributed::DeviceLocalBufferConfig local{.page_size = tile_bytes, .buffer_type = BufferType::DRAM};
    distributed::ReplicatedBufferConfig whole{.size = n_tiles * tile_bytes};
    auto src = distributed::MeshBuffer::create(whole, local, mesh.get());
    auto dst = distributed::MeshBuffer::create(whole, local, mesh.get());

    // exp is elementwise, so the host data need not be tilized: each tile's 1024 values go
    // through exp wherever they sit in it.
    std::vector<bfloat16> x = create_random_vector_of_bfloat16_native(whole.size, 6.0f, 7, -3.0f);
    distributed::EnqueueWriteMeshBuffer(cq, src, x, false);

    for (uint8_t cb : {tt::CBIndex::c_0, tt::CBIndex::c_16})
        CreateCircularBuffer(
            program, core,
            CircularBufferConfig(2 * tile_bytes, {{cb, tt::DataFormat::Float16_b}}).set_page_size(cb, tile_bytes));

    std::vector<uint32_t> reader_args, writer_args;
    TensorAccessorArgs(*src->get_backing_buffer()).append_to(reader_args);
    TensorAccessorArgs(*dst->get_backing_buffer()).append_to(writer_args);
    const std::string dir = "emulator/compat/examples/eltwise_sfpu_mesh/kernels/";
    KernelHandle reader = CreateKernel(program, dir + "reader_unary.cpp", core, ReaderDataMovementConfig(reader_args));
    KernelHandle writer = CreateKernel(program, dir + "writer_unary.cpp", core, WriterDataMovementConfig(writer_args));
    CreateKernel(
        program, dir + "exp_tiles.cpp", core,
        ComputeConfig{.math_fidelity = MathFidelity::HiFi4, .math_approx_mode = false, .compile_args = {n_tiles}});
    SetRuntimeArgs(program, reader, core, {uint32_t(src->address()), n_tiles});
    SetRuntimeArgs(program, writer, core, {uint32_t(dst->address()), n_tiles});

    distributed::MeshWorkload workload;
    workload.add_program(distributed::MeshCoordinateRange(mesh->shape()), std::move(program));
    distributed::EnqueueMeshWorkload(cq, workload, false);
    distributed::Finish(cq);

    std::vector<bfloat16> y;
    distributed::ReadShard(cq, y, dst, distributed::MeshCoordinate(0, 0), true);
    mesh->close();

    // bf16 input, exp evaluated to near fp32 accuracy and packed to bf16: within two bf16 ulps
    // (2^-6 relative) of the host's exp.
    size_t bad = 0;
    for (size_t i = 0; i < x.size(); ++i) {
        float want = std::exp(float(x[i]));
        if (std::fabs(float(y[i]) - want) > std::ldexp(want, -6)) {
            if (bad++ < 5)
                log_error(tt::LogTest, "element {}: exp({}) got {}, want {}", i, float(x[i]), float(y[i]), want);
        }
    }
    log_info(tt::LogTest, "{} of {} elements differ", bad, y.size());
    std::puts(bad == 0 ? "PASS" : "FAIL");  // allow-print: the example's verdict, as tt-metal's examples print
    return bad == 0 ? 0 : 1;
}
