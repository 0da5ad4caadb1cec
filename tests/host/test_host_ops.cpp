// Every op × every dtype through the host code generator, in one compiler run: a compile error
// in generated code is a bug. Each kernel also runs on random data (with NaN, inf, extremes)
// and must agree with the reference interpreter.
#include <gtest/gtest.h>

#include "host_test_util.hpp"
#include "random_data.hpp"

using namespace zyx;
using namespace zyx::kernel;
using namespace zyx::backend;
using namespace zyx::backend::host;
using namespace zyx::host_test;

namespace {
const DType kAll[] = {DType::f64, DType::f32, DType::f16, DType::bf16, DType::i8,  DType::i16,  DType::i32,
                      DType::i64, DType::u8,  DType::u16, DType::u32,  DType::u64, DType::bool_};

// out_j = op_j(x, y) for every unary, binary, cast and bitcast op that accepts t, plus where,
// index, scalar, constant and a padded load.
Case elementwise_case(DType t, std::mt19937_64& rng) {
    const int64_t n = 257;  // not a multiple of any vector width
    Case c;
    Kernel& k = c.kernel;
    k.shape = {n};
    View v = View::contiguous({n});
    int x = k.load(k.add_input(t, v));
    int y = k.load(k.add_input(t, v));
    int cond = k.load(k.add_input(DType::bool_, v));
    int padded = k.load(k.add_input(t, View::contiguous({n - 10}).pad({4}, {6}), random_bits(t, rng)));
    int s = k.scalar(k.add_scalar(t));
    auto out = [&](int node) { k.add_output(k.nodes[size_t(node)].dtype, v, node); };
    for (int o = 0; o < kNumOps; ++o) {
        Op op = Op(o);
        if (op_is_unary(op) && op_accepts(op, t)) out(k.unary(op, x));
        if (op_is_binary(op) && op_accepts(op, t)) out(k.binary(op, x, y));
    }
    out(k.where(cond, x, k.constant_bits(t, random_bits(t, rng))));
    out(k.where(cond, s, padded));
    for (DType to : kAll) {
        out(k.cast(x, to));
        if (to != t && op_accepts(Op::bitcast, to) && op_accepts(Op::bitcast, t) && dtype_size(to) == dtype_size(t))
            out(k.bitcast(x, to));
    }
    if (dtype_is_int(t)) out(k.binary(Op::add, k.index(0, t), x));
    for (int i = 0; i < 4; ++i) c.buffers.push_back(random_buffer(k.inputs[size_t(i)].dtype, size_t(n), rng));
    for (const Output& o : k.outputs)
        c.buffers.push_back(std::vector<uint8_t>(size_t(n) * dtype_size(o.dtype) + 1, 0xab));
    c.scalars = {random_bits(t, rng)};
    return c;
}

// out_j[r] = reduce_j over c of f(x[r, c]) for each reduce op accepting t, from a padded and
// flipped view; plus a reduce over a level-0 value broadcast inside the reduce.
Case reduce_case(DType t, std::mt19937_64& rng) {
    const int64_t rows = 5, cols = 33;
    Case c;
    Kernel& k = c.kernel;
    k.shape = {rows, cols};
    k.reduce_axes = 1;
    View xv = View::contiguous({rows, cols - 3}).pad({0, 1}, {0, 2}).flip({1});
    int x = k.load(k.add_input(t, xv, random_bits(t, rng)));
    int b = k.load(k.add_input(t, View::contiguous({rows})));
    for (Op op : {Op::reduce_sum, Op::reduce_prod, Op::reduce_max, Op::reduce_min}) {
        if (!op_accepts(op, t)) continue;
        int r = k.reduce(op, x);
        k.add_output(t, View::contiguous({rows}), r);
        int mixed = k.reduce(op, op_accepts(Op::add, t) ? k.binary(Op::add, x, b) : k.binary(Op::max, x, b));
        k.add_output(t, View::contiguous({rows}), mixed);
    }
    c.buffers.push_back(random_buffer(t, size_t(rows * (cols - 3)), rng));
    c.buffers.push_back(random_buffer(t, size_t(rows), rng));
    for (const Output& o : k.outputs)
        c.buffers.push_back(std::vector<uint8_t>(size_t(rows) * dtype_size(o.dtype) + 1, 0));
    return c;
}
}  // namespace

TEST(HostOps, EveryOpAndDtypeCompilesInOneBatchAndAgrees) {
    std::mt19937_64 rng(20240601);
    std::vector<Case> cases;
    for (DType t : kAll) {
        cases.push_back(elementwise_case(t, rng));
        cases.push_back(reduce_case(t, rng));
    }
    std::vector<const Kernel*> kernels;
    for (const Case& c : cases) kernels.push_back(&c.kernel);
    HostPool pool;
    HostDevice dev(pool);
    std::vector<ProgramId> ids = dev.compile_batch(kernels);
    ASSERT_EQ(ids.size(), cases.size());
    size_t outputs = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        SCOPED_TRACE(kernel_string(c.kernel));
        auto want = run_reference(c);
        auto got = run_host(pool, dev, ids[i], c);
        EXPECT_EQ(compare_outputs(c, want, got), "");
        outputs += c.kernel.outputs.size();
    }
    EXPECT_GT(outputs, 500u) << "the batch covers every op/dtype pair";
}
