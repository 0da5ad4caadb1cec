// Kernel validation (each rule provoked, each message naming the culprit) and structural hashing.
#include <gtest/gtest.h>

#include <unordered_map>

#include "core/error.hpp"
#include "kernel/kernel.hpp"

using namespace zyx;
using namespace zyx::kernel;

namespace {
// y[i] = sum_j x[i, j] * c
Kernel row_sum(int64_t rows, int64_t cols, double c) {
    Kernel k;
    k.shape = {rows, cols};
    k.reduce_axes = 1;
    int x = k.add_input(DType::f32, View::contiguous({rows, cols}));
    int s = k.reduce(Op::reduce_sum, k.binary(Op::mul, k.load(x), k.constant(DType::f32, c)));
    k.add_output(DType::f32, View::contiguous({rows}), s);
    return k;
}

void expect_invalid(const Kernel& k, const std::string& fragment) {
    try {
        validate(k);
        ADD_FAILURE() << "accepted; expected an error containing '" << fragment << "'";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument);
        EXPECT_NE(e.message().find(fragment), std::string::npos) << e.message();
    }
}
}  // namespace

TEST(KernelStructure, EqualStructureHashesEqual) {
    Kernel a = row_sum(4, 8, 2.0), b = row_sum(4, 8, 2.0);
    EXPECT_EQ(a, b);
    EXPECT_EQ(kernel_hash(a), kernel_hash(b));
    std::unordered_map<Kernel, int, KernelHash> cache;
    cache[a] = 1;
    EXPECT_EQ(cache.count(b), 1u);
    Kernel c = row_sum(4, 8, 3.0), d = row_sum(4, 9, 2.0);
    EXPECT_NE(a, c);
    EXPECT_NE(kernel_hash(a), kernel_hash(c)) << "constants are structure";
    EXPECT_NE(kernel_hash(a), kernel_hash(d)) << "shapes are structure";
    Kernel e = a;
    e.inputs[0].view = e.inputs[0].view.flip({1});
    EXPECT_NE(kernel_hash(a), kernel_hash(e)) << "views are structure";
    EXPECT_NO_THROW(validate(a));
    EXPECT_NE(kernel_string(a).find("reduce_sum.f32"), std::string::npos) << kernel_string(a);
}

TEST(KernelStructure, ValidationRules) {
    {  // dtype mismatch between operands
        Kernel k;
        k.shape = {4};
        int x = k.load(k.add_input(DType::f32, View::contiguous({4})));
        int y = k.load(k.add_input(DType::i32, View::contiguous({4})));
        k.add_output(DType::f32, View::contiguous({4}), k.binary(Op::add, x, y));
        expect_invalid(k, "node %2 (add f32): operand dtypes differ (f32, i32)");
    }
    {  // float-only op on integers
        Kernel k;
        k.shape = {4};
        int x = k.load(k.add_input(DType::i32, View::contiguous({4})));
        k.add_output(DType::i32, View::contiguous({4}), k.unary(Op::exp, x));
        expect_invalid(k, "node %1 (exp i32): does not accept i32");
    }
    {  // reduce of a reduce
        Kernel k = row_sum(2, 3, 1.0);
        int r2 = k.reduce(Op::reduce_max, k.outputs[0].node);
        k.outputs[0].node = r2;
        expect_invalid(k, "reduce of a reduce");
    }
    {  // output still varying over the reduce axis
        Kernel k;
        k.shape = {2, 3};
        k.reduce_axes = 1;
        int x = k.load(k.add_input(DType::f32, View::contiguous({2, 3})));
        k.add_output(DType::f32, View::contiguous({2}), x);
        expect_invalid(k, "output 0 stores node %0");
    }
    {  // input view of the wrong shape
        Kernel k;
        k.shape = {4};
        int x = k.load(k.add_input(DType::f32, View::contiguous({5})));
        k.add_output(DType::f32, View::contiguous({4}), x);
        expect_invalid(k, "input 0 view shape [5]");
    }
    {  // overlapping output view
        Kernel k;
        k.shape = {2, 2};
        int x = k.load(k.add_input(DType::f32, View::contiguous({2, 2})));
        View ov = View::contiguous({2, 2});
        ov.layers[0].strides = {1, 1};
        k.add_output(DType::f32, ov, x);
        expect_invalid(k, "writes some elements twice");
    }
    {  // broadcast output view
        Kernel k;
        k.shape = {3};
        int x = k.load(k.add_input(DType::f32, View::contiguous({3})));
        k.add_output(DType::f32, View::contiguous({1}).expand({3}), x);
        expect_invalid(k, "writes some elements twice");
    }
    {  // operand that is not an earlier node
        Kernel k;
        k.shape = {1};
        Node n;
        n.op = Op::neg;
        n.src[0] = 5;
        k.push(n);
        k.add_output(DType::f32, View::contiguous({1}), 0);
        expect_invalid(k, "node %0 (neg f32) operand 0 = %5 is not an earlier node");
    }
    {  // output dtype differs from its node; unknown scalar; where on non-bool
        Kernel k;
        k.shape = {1};
        int s = k.scalar(3);
        k.add_output(DType::f32, View::contiguous({1}), s);
        expect_invalid(k, "no scalar 3");
        Kernel w;
        w.shape = {1};
        int c = w.constant(DType::f32, 1);
        w.add_output(DType::f32, View::contiguous({1}), w.where(c, c, c));
        expect_invalid(w, "condition must be bool");
        Kernel o;
        o.shape = {1};
        o.add_output(DType::f16, View::contiguous({1}), o.constant(DType::f32, 1));
        expect_invalid(o, "output 0 dtype f16 differs");
        Kernel b;
        b.shape = {1};
        b.add_output(DType::i16, View::contiguous({1}), b.bitcast(b.constant(DType::f32, 1), DType::i16));
        expect_invalid(b, "bitcast from f32");
    }
    {  // views that reach outside their buffer: refused by validate, so no backend compiles them
        Kernel k;
        k.shape = {4};
        View below = View::contiguous({4});
        below.layers[0].offset = -2;  // elements -2 .. 1
        k.add_output(DType::f32, View::contiguous({4}), k.load(k.add_input(DType::f32, below)));
        expect_invalid(k, "input 0 view [4]/s[1]+-2 reaches element -2 (below 0)");
        Kernel o;
        o.shape = {4};
        View back = View::contiguous({4});
        back.layers[0].strides = {-1};  // elements 0, -1, -2, -3
        o.add_output(DType::f32, back, o.constant(DType::f32, 1));
        expect_invalid(o, "output 0 view [4]/s[-1] reaches element -3 (below 0)");
        // An upper layer whose positions leave the shape of the layer below (8 elements) would
        // unravel into indices outside it.
        Kernel u;
        u.shape = {2, 4};
        View two;
        two.layers = {ViewLayer{{8}, {1}, 0, {}, {}}, ViewLayer{{2, 4}, {4, 1}, 3, {}, {}}};  // positions 3 .. 10
        u.add_output(DType::f32, View::contiguous({2, 4}), u.load(u.add_input(DType::f32, two)));
        expect_invalid(u, "layer 1 reaches positions 3..10");
        // A masked-out part may point anywhere: only positions that are read count.
        Kernel m;
        m.shape = {4};
        View padded = View::contiguous({2}).pad({2}, {0});  // elements -2, -1 are padding
        m.add_output(DType::f32, View::contiguous({4}), m.load(m.add_input(DType::f32, padded)));
        EXPECT_NO_THROW(validate(m));
    }
    {  // a valid kernel with a strided, offset output view (writing into a slice)
        Kernel k;
        k.shape = {2, 2};
        int x = k.load(k.add_input(DType::f32, View::contiguous({2, 2})));
        k.add_output(DType::f32, View::contiguous({4, 4}).shrink({1, 1}, {3, 3}), x);
        EXPECT_NO_THROW(validate(k));
    }
}
