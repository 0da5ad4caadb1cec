// Step 2a: the reader and writer kernels of a plan. The reader walks the same loops as the
// compute kernel (output tiles; reduce steps or K tiles) and pushes, for every stream, the tile
// the compute kernel will read next; the writer drains the output CB into the output buffer,
// whose page t is output tile t.
#include <sstream>

#include "backend/tenstorrent/codegen/emit.hpp"
#include "backend/tenstorrent/tile_layout.hpp"
#include "core/error.hpp"

namespace zyx::tt::codegen {

using kernel::Kernel;
using kernel::View;
using kernel::ViewLayer;

const char* skeleton_name(Skeleton s) {
    switch (s) {
        case Skeleton::map: return "map";
        case Skeleton::reduce: return "reduce";
        case Skeleton::matmul: return "matmul";
    }
    return "?";
}

void emit_work_split(std::ostringstream& os, const std::string& ind, uint64_t tiles) {
    os << ind << "const uint32_t core = get_arg_val<uint32_t>(0), cores = get_arg_val<uint32_t>(1);\n"
       << ind << "const uint32_t per = " << tiles << "u / cores, extra = " << tiles << "u % cores;\n"
       << ind << "const uint32_t start = core * per + (core < extra ? core : extra);\n"
       << ind << "const uint32_t count = per + (core < extra ? 1u : 0u);\n";
}

namespace {

std::string dim_origin(Dim d) {
    switch (d) {
        case Dim::out_rows: return "o_rows";
        case Dim::out_cols: return "o_cols";
        case Dim::red_rows: return "o_red_rows";
        case Dim::red_cols: return "o_red_cols";
        case Dim::k: return "o_k";
    }
    return "?";
}

// A variable name: a letter and a number ("i3"). Not written `"i" + std::to_string(n)`: GCC 12
// warns about that falsely (-Wrestrict) once it is inlined.
std::string var(char letter, int64_t n) {
    std::string v = std::to_string(n);
    return v.insert(0, 1, letter);
}
std::string ivar(int axis) { return var('i', axis); }

// Datum type of a CB format.
const char* datum(protocol::DataFormat f) { return tile_size_bytes(f) == 4096 ? "uint32_t" : "uint16_t"; }

// The element of the input buffer the tile origin of a strided stream reads (index vars i<d>).
std::string origin_offset(const Stream& s) {
    std::string e = std::to_string(s.offset) + "ll";
    for (size_t d = 0; d < s.strides.size(); ++d)
        if (s.strides[d] != 0) e += " + " + std::to_string(s.strides[d]) + "ll * " + ivar(int(d));
    return e;
}

// Statements computing `e` (element offset) and `ok` (not padding) of view `v` at index vars
// `vars` (one per axis of the view's top layer).
void emit_view(std::ostringstream& os, const std::string& ind, const View& v, const std::vector<std::string>& vars) {
    auto layer_code = [&](const ViewLayer& l, const std::vector<std::string>& vs, const std::string& in_ok) {
        std::string off = std::to_string(l.offset) + "ll";
        for (size_t d = 0; d < l.shape.size(); ++d)
            if (l.strides[d] != 0 && l.shape[d] != 1) off += " + " + std::to_string(l.strides[d]) + "ll * " + vs[d];
        std::string ok = in_ok;
        if (l.has_mask())
            for (size_t d = 0; d < l.shape.size(); ++d) {
                if (l.mask_begin[d] > 0 || l.mask_begin[d] >= l.mask_end[d])
                    ok += " && " + vs[d] + " >= " + std::to_string(l.mask_begin[d]);
                if (l.mask_end[d] < l.shape[d] || l.mask_begin[d] >= l.mask_end[d])
                    ok += " && " + vs[d] + " < " + std::to_string(l.mask_end[d]);
            }
        return std::make_pair(off, ok);
    };
    auto [off, ok] = layer_code(v.layers.back(), vars, "true");
    os << ind << "int64_t e = " << off << ";\n" << ind << "bool ok = " << ok << ";\n";
    for (size_t li = v.layers.size() - 1; li-- > 0;) {
        const ViewLayer& l = v.layers[li];
        os << ind << "{\n" << ind << "    int64_t q = e;\n";
        std::vector<std::string> lv(l.shape.size());
        for (size_t d = l.shape.size(); d-- > 0;) {
            lv[d] = var('z', d);
            int64_t n = std::max<int64_t>(l.shape[d], 1);
            os << ind << "    const int64_t " << lv[d] << " = q % " << n << "; q /= " << n << ";\n";
        }
        auto [loff, lok] = layer_code(l, lv, "ok");
        os << ind << "    ok = " << lok << ";\n" << ind << "    e = " << loff << ";\n" << ind << "}\n";
    }
}

// `tile` and `pos` (datum within the tile) of buffer element `e` of input `in`.
void emit_tile_of(std::ostringstream& os, const std::string& ind, const kernel::Input& in, const char* e) {
    const int64_t R = in.storage.rows, C = in.storage.cols;
    const int64_t TR = (R + 31) / 32, TC = (C + 31) / 32;
    os << ind << "const int64_t er = (" << e << " / " << C << ") % " << R << ", ec = " << e << " % " << C << ";\n"
       << ind << "const uint32_t tile = uint32_t((" << e << " / " << R * C << ") * " << TR * TC << " + (er >> 5) * "
       << TC << " + (ec >> 5));\n"
       << ind << "const uint32_t pos = face(uint32_t(er & 31), uint32_t(ec & 31));\n";
}

// Unravels flat position `flat` of a tile dimension into its index vars.
void emit_unravel(std::ostringstream& os, const std::string& ind, const Kernel& k, const TileDim& d,
                  const std::string& flat, const std::string& prefix) {
    if (d.axes.empty()) return;
    if (d.axes.size() == 1) {
        os << ind << "const int64_t " << prefix << d.axes[0] << " = " << flat << ";\n";
        return;
    }
    os << ind << "int64_t q" << prefix << " = " << flat << ";\n";
    for (size_t j = d.axes.size(); j-- > 0;) {
        int a = d.axes[j];
        os << ind << "const int64_t " << prefix << a << " = q" << prefix << " % " << k.shape[size_t(a)] << "; q"
           << prefix << " /= " << k.shape[size_t(a)] << ";\n";
    }
}

class Reader {
public:
    explicit Reader(const Plan& p) : p_(p), k_(p.kernel) {}

    std::string source() {
        os_ << "// zyx: generated reader (" << skeleton_name(p_.skeleton) << " skeleton).\n"
            << "// Runtime args: core index, core count, the address of every input.\n"
            << "// Compile-time args: TensorAccessorArgs of every input, in order.\n"
            << "#include <stdint.h>\n"
            << "#include \"api/dataflow/dataflow_api.h\"\n\n"
            << "namespace {\n"
            << "// Datum of element (r, c) in a tile of four 16x16 faces.\n"
            << "inline uint32_t face(uint32_t r, uint32_t c) { return ((r >> 4) * 2 + (c >> 4)) * 256 + (r & 15) * 16 + (c & 15); }\n"
            << "}  // namespace\n\n"
            << "void kernel_main() {\n";
        const std::string I1 = "    ";
        emit_work_split(os_, I1, p_.out_tiles);
        for (size_t i = 0; i < k_.inputs.size(); ++i) {
            os_ << I1 << "constexpr auto args" << i << " = TensorAccessorArgs<" << 2 * i << ">();\n"
                << I1 << "const auto in" << i << " = TensorAccessor(args" << i << ", get_arg_val<uint32_t>(" << 2 + i
                << "), " << tile_bytes(k_.inputs[i].dtype) << ");\n";
        }
        for (const Stream& s : p_.streams)
            if (s.read == Read::gather) {
                // The source-tile cache of a gather: the pages of its scratch CB, direct-mapped by tile id.
                os_ << I1 << "cb_reserve_back(" << s.scratch_cb << ", " << kGatherCacheTiles << ");\n"
                    << I1 << "const uint32_t cache" << s.cb << " = get_write_ptr(" << s.scratch_cb << ");\n"
                    << I1 << "uint32_t tags" << s.cb << "[" << kGatherCacheTiles << "];\n"
                    << I1 << "for (uint32_t j = 0; j < " << kGatherCacheTiles << "; ++j) tags" << s.cb
                    << "[j] = 0xffffffffu;\n";
            }
        const TileDim& rows = p_.dims[int(Dim::out_rows)];
        const TileDim& cols = p_.dims[int(Dim::out_cols)];
        os_ << I1 << "for (uint32_t t = start; t < start + count; ++t) {\n";
        const std::string I2 = I1 + "    ";
        os_ << I2 << "uint32_t q = t;\n"
            << I2 << "const uint32_t tc = q % " << cols.tiles << "; q /= " << cols.tiles << ";\n"
            << I2 << "const uint32_t tr = q % " << rows.tiles << "; q /= " << rows.tiles << ";\n"
            << I2 << "const int64_t o_rows = int64_t(tr) * 32, o_cols = int64_t(tc) * 32;\n";
        for (int a = 0; a < int(k_.shape.size()); ++a) os_ << I2 << "int64_t " << ivar(a) << " = 0;\n";
        for (size_t j = p_.out_outer.size(); j-- > 0;) {
            int a = p_.out_outer[j];
            os_ << I2 << ivar(a) << " = q % " << k_.shape[size_t(a)] << "; q /= " << k_.shape[size_t(a)] << ";\n";
        }
        if (rows.axes.size() == 1) os_ << I2 << ivar(rows.axes[0]) << " = o_rows;\n";
        if (cols.axes.size() == 1) os_ << I2 << ivar(cols.axes[0]) << " = o_cols;\n";
        const std::string I3 = I2 + "    ";
        if (p_.skeleton == Skeleton::reduce) {
            const TileDim& rr = p_.dims[int(Dim::red_rows)];
            const TileDim& rc = p_.dims[int(Dim::red_cols)];
            os_ << I2 << "for (uint32_t s = 0; s < " << p_.steps << "u; ++s) {\n"
                << I3 << "uint32_t w = s;\n"
                << I3 << "const uint32_t rc = w % " << rc.tiles << "; w /= " << rc.tiles << ";\n"
                << I3 << "const uint32_t rr = w % " << rr.tiles << "; w /= " << rr.tiles << ";\n"
                << I3 << "const int64_t o_red_rows = int64_t(rr) * 32, o_red_cols = int64_t(rc) * 32;\n";
            for (size_t j = p_.red_outer.size(); j-- > 0;) {
                int a = p_.red_outer[j];
                os_ << I3 << ivar(a) << " = w % " << k_.shape[size_t(a)] << "; w /= " << k_.shape[size_t(a)] << ";\n";
            }
            if (rr.axes.size() == 1) os_ << I3 << ivar(rr.axes[0]) << " = o_red_rows;\n";
            if (rc.axes.size() == 1) os_ << I3 << ivar(rc.axes[0]) << " = o_red_cols;\n";
            for (const Stream& s : p_.streams)
                if (s.level == 1) stream(s, I3);
            if (p_.mask_cb != UINT32_MAX) mask(I3);
            os_ << I2 << "}\n";
        } else if (p_.skeleton == Skeleton::matmul) {
            const TileDim& kd = p_.dims[int(Dim::k)];
            os_ << I2 << "for (uint32_t kt = 0; kt < " << p_.steps << "u; ++kt) {\n"
                << I3 << "const int64_t o_k = int64_t(kt) * 32;\n";
            if (kd.axes.size() == 1) os_ << I3 << ivar(kd.axes[0]) << " = o_k;\n";
            stream(p_.streams[size_t(p_.matmul_a)], I3);
            stream(p_.streams[size_t(p_.matmul_b)], I3);
            os_ << I2 << "}\n";
        }
        for (const Stream& s : p_.streams)
            if (s.level == 0) stream(s, I2);
        os_ << I1 << "}\n";
        for (const Stream& s : p_.streams)
            if (s.read == Read::gather)  // hand the scratch pages back so the CB ends empty
                os_ << I1 << "cb_push_back(" << s.scratch_cb << ", " << kGatherCacheTiles << ");\n"
                    << I1 << "cb_wait_front(" << s.scratch_cb << ", " << kGatherCacheTiles << ");\n"
                    << I1 << "cb_pop_front(" << s.scratch_cb << ", " << kGatherCacheTiles << ");\n";
        os_ << "}\n";
        return os_.str();
    }

private:
    // The tile of stream `s` at the current loop position, pushed to its CB.
    void stream(const Stream& s, const std::string& ind) {
        const std::string I = ind + "    ";
        os_ << ind << "{  // "
            << (s.input >= 0 ? "input " + std::to_string(s.input) : "index of axis " + std::to_string(s.index_axis))
            << ", " << read_name(s.read) << "\n"
            << I << "cb_reserve_back(" << s.cb << ", 1);\n"
            << I << "const uint32_t l1 = get_write_ptr(" << s.cb << ");\n";
        const char* T = datum(s.format);
        switch (s.read) {
            case Read::tile:
            case Read::transposed:
            case Read::bcast_row:
            case Read::bcast_col:
            case Read::bcast_scalar: {
                const kernel::Input& in = k_.inputs[size_t(s.input)];
                os_ << I << "const int64_t e0 = " << origin_offset(s) << ";\n";
                emit_tile_of(os_, I, in, "e0");
                os_ << I << "(void)pos;\n"
                    << I << "noc_async_read_page(tile, in" << s.input << ", l1);\n"
                    << I << "noc_async_read_barrier();\n";
                if (s.read == Read::bcast_row || s.read == Read::bcast_col || s.read == Read::bcast_scalar) {
                    os_ << I << T << "* d = reinterpret_cast<" << T << "*>(l1);\n";
                    if (s.read == Read::bcast_row)
                        os_ << I << T << " line[32];\n"
                            << I << "for (uint32_t c = 0; c < 32; ++c) line[c] = d[face(uint32_t(er & 31), c)];\n"
                            << I << "for (uint32_t r = 0; r < 32; ++r)\n"
                            << I << "    for (uint32_t c = 0; c < 32; ++c) d[face(r, c)] = line[c];\n";
                    else if (s.read == Read::bcast_col)
                        os_ << I << T << " line[32];\n"
                            << I << "for (uint32_t r = 0; r < 32; ++r) line[r] = d[face(r, uint32_t(ec & 31))];\n"
                            << I << "for (uint32_t r = 0; r < 32; ++r)\n"
                            << I << "    for (uint32_t c = 0; c < 32; ++c) d[face(r, c)] = line[r];\n";
                    else
                        os_ << I << "const " << T << " v = d[face(uint32_t(er & 31), uint32_t(ec & 31))];\n"
                            << I << "for (uint32_t j = 0; j < 1024; ++j) d[j] = v;\n";
                }
                if (s.zero_k_padding) zero_k_padding(s, I, T);
                break;
            }
            case Read::gather: gather(s, I, T); break;
            case Read::index: index(s, I); break;
        }
        if (s.lo_cb != UINT32_MAX) split_f32(s, I);
        os_ << I << "cb_push_back(" << s.cb << ", 1);\n" << ind << "}\n";
    }

    // f32 matmul operand (Plan::split_f32): the tile keeps the part the FPU reads exactly, the
    // rest goes to the stream's lo CB (and, for B, is split once more into lo and lo2). in0 (A)
    // is SrcB: TF32, 10 mantissa bits; in1 (B) is SrcA, which drops the last TF32 bit too
    // (docs/numerics.md §5): 9 bits. Every part is exact in f32 and they sum to the value. inf
    // keeps zero low parts; NaN becomes a quiet NaN with zero low parts.
    void split_f32(const Stream& s, const std::string& I) {
        const bool b = s.lo2_cb != UINT32_MAX;
        const char* mask = b ? "0xffffc000u" : "0xffffe000u";
        os_ << I << "cb_reserve_back(" << s.lo_cb << ", 1);\n";
        if (b) os_ << I << "cb_reserve_back(" << s.lo2_cb << ", 1);\n";
        os_ << I << "{\n"
            << I << "    uint32_t* hi = reinterpret_cast<uint32_t*>(l1);\n"
            << I << "    uint32_t* lo = reinterpret_cast<uint32_t*>(get_write_ptr(" << s.lo_cb << "));\n";
        if (b) os_ << I << "    uint32_t* lo2 = reinterpret_cast<uint32_t*>(get_write_ptr(" << s.lo2_cb << "));\n";
        os_ << I << "    // x = top(x) + (x - top(x)), exactly; top keeps the sign, the exponent and the first bits\n"
            << I << "    auto top = [](uint32_t x) { return x & " << mask << "; };\n"
            << I << "    auto sub = [](uint32_t x, uint32_t y) {\n"
            << I << "        float fx, fy;\n"
            << I << "        __builtin_memcpy(&fx, &x, 4);\n"
            << I << "        __builtin_memcpy(&fy, &y, 4);\n"
            << I << "        const float d = fx - fy;\n"
            << I << "        uint32_t u;\n"
            << I << "        __builtin_memcpy(&u, &d, 4);\n"
            << I << "        return u;\n"
            << I << "    };\n"
            << I << "    for (uint32_t j = 0; j < 1024; ++j) {\n"
            << I << "        const uint32_t x = hi[j];\n"
            << I << "        if ((x & 0x7f800000u) == 0x7f800000u) {\n"
            << I << "            if (x & 0x007fffffu) hi[j] = 0x7fc00000u;\n"
            << I << "            lo[j] = 0;\n";
        if (b) os_ << I << "            lo2[j] = 0;\n";
        os_ << I << "            continue;\n" << I << "        }\n" << I << "        hi[j] = top(x);\n";
        if (b)
            os_ << I << "        const uint32_t r = sub(x, hi[j]);\n"
                << I << "        lo[j] = top(r);\n"
                << I << "        lo2[j] = sub(r, lo[j]);\n";
        else
            os_ << I << "        lo[j] = sub(x, hi[j]);\n";
        os_ << I << "    }\n" << I << "}\n";
        if (b) os_ << I << "cb_push_back(" << s.lo2_cb << ", 1);\n";
        os_ << I << "cb_push_back(" << s.lo_cb << ", 1);\n";
    }

    // Matmul: the K padding of the last K tile reads zero (the buffer's padding may hold anything).
    void zero_k_padding(const Stream& s, const std::string& I, const char* T) {
        const TileDim& kd = p_.dims[int(Dim::k)];
        const int64_t valid = kd.size % 32;
        // K runs along the tile's columns (A) or rows (B); a transposed B is still untransposed
        // in L1, so its K runs along the columns too.
        const bool k_in_cols = s.cols == Dim::k || s.read == Read::transposed;
        os_ << I << "if (o_k + 32 > " << kd.size << ") {\n"
            << I << "    " << T << "* z = reinterpret_cast<" << T << "*>(l1);\n"
            << I << "    for (uint32_t r = 0; r < 32; ++r)\n"
            << I << "        for (uint32_t c = 0; c < 32; ++c)\n"
            << I << "            if (" << (k_in_cols ? "c" : "r") << " >= " << valid << ") z[face(r, c)] = 0;\n"
            << I << "}\n";
    }

    // Element by element: each element's index, through the view, to a datum of a source tile
    // (fetched whole into the cache on a miss).
    void gather(const Stream& s, const std::string& I, const char* T) {
        const kernel::Input& in = k_.inputs[size_t(s.input)];
        const TileDim& rd = p_.dims[int(s.rows)];
        const TileDim& cd = p_.dims[int(s.cols)];
        uint64_t pad = in.pad_value;
        if (in.dtype == DType::bool_) pad = pad ? 0x3f80 : 0;
        const uint32_t page = tile_bytes(in.dtype);
        // The view's index vars: the plane's axes from the element, the others from the loops.
        std::vector<std::string> vars;
        View v = in.view;
        for (size_t d = 0; d < v.rank(); ++d) {
            bool in_rows = std::find(rd.axes.begin(), rd.axes.end(), int(d)) != rd.axes.end();
            bool in_cols = std::find(cd.axes.begin(), cd.axes.end(), int(d)) != cd.axes.end();
            vars.push_back(in_rows ? var('r', d) : in_cols ? var('c', d) : ivar(int(d)));
        }
        os_ << I << T << "* d = reinterpret_cast<" << T << "*>(l1);\n"
            << I << "for (uint32_t r = 0; r < 32; ++r) {\n"
            << I << "    const int64_t fr = " << dim_origin(s.rows) << " + r;\n";
        std::string I2 = I + "    ", I3 = I2 + "    ", I4 = I3 + "    ";
        os_ << I2 << "if (fr >= " << rd.size << ") {\n"
            << I3 << "for (uint32_t c = 0; c < 32; ++c) d[face(r, c)] = 0;\n"
            << I3 << "continue;\n"
            << I2 << "}\n";
        emit_unravel(os_, I2, k_, rd, "fr", "r");
        os_ << I2 << "for (uint32_t c = 0; c < 32; ++c) {\n"
            << I3 << "const int64_t fc = " << dim_origin(s.cols) << " + c;\n"
            << I3 << T << " v = 0;\n"
            << I3 << "if (fc < " << cd.size << ") {\n";
        emit_unravel(os_, I4, k_, cd, "fc", "c");
        emit_view(os_, I4, v, vars);
        os_ << I4 << "if (!ok) {\n" << I4 << "    v = " << T << "(" << pad << "u);\n" << I4 << "} else {\n";
        std::string I5 = I4 + "    ";
        emit_tile_of(os_, I5, in, "e");
        os_ << I5 << "const uint32_t slot = tile % " << kGatherCacheTiles << ";\n"
            << I5 << "const uint32_t src = cache" << s.cb << " + slot * " << page << ";\n"
            << I5 << "if (tags" << s.cb << "[slot] != tile) {\n"
            << I5 << "    noc_async_read_page(tile, in" << s.input << ", src);\n"
            << I5 << "    noc_async_read_barrier();\n"
            << I5 << "    tags" << s.cb << "[slot] = tile;\n"
            << I5 << "}\n"
            << I5 << "v = reinterpret_cast<const " << T << "*>(src)[pos];\n"
            << I4 << "}\n"
            << I3 << "}\n"
            << I3 << "d[face(r, c)] = v;\n"
            << I2 << "}\n"
            << I << "}\n";
    }

    // Each element's position along the stream's index axis, as f32.
    void index(const Stream& s, const std::string& I) {
        const TileDim& rd = p_.dims[int(s.rows)];
        const TileDim& cd = p_.dims[int(s.cols)];
        const int a = s.index_axis;
        bool in_rows = std::find(rd.axes.begin(), rd.axes.end(), a) != rd.axes.end();
        bool in_cols = std::find(cd.axes.begin(), cd.axes.end(), a) != cd.axes.end();
        os_ << I << "float* d = reinterpret_cast<float*>(l1);\n"
            << I << "for (uint32_t r = 0; r < 32; ++r) {\n"
            << I << "    const int64_t fr = " << dim_origin(s.rows) << " + r;\n";
        std::string I2 = I + "    ";
        if (in_rows) emit_unravel(os_, I2, k_, rd, "fr", "r");
        os_ << I2 << "for (uint32_t c = 0; c < 32; ++c) {\n"
            << I2 << "    const int64_t fc = " << dim_origin(s.cols) << " + c;\n";
        if (in_cols) emit_unravel(os_, I2 + "    ", k_, cd, "fc", "c");
        std::string value = in_rows ? var('r', a) : in_cols ? var('c', a) : ivar(a);
        os_ << I2 << "    (void)fr; (void)fc;\n"
            << I2 << "    d[face(r, c)] = float(" << value << ");\n"
            << I2 << "}\n"
            << I << "}\n";
    }

    // Reduce skeleton, partial last tile of a reduced dimension: 1.0 where the operand holds
    // data, 0.0 in the padding.
    void mask(const std::string& ind) {
        const TileDim& rr = p_.dims[int(Dim::red_rows)];
        const TileDim& rc = p_.dims[int(Dim::red_cols)];
        bool er = p_.reduce_rows && rr.size % 32, ec = p_.reduce_cols && rc.size % 32;
        os_ << ind << "{  // mask of the partial tile\n";
        std::string I = ind + "    ";
        os_ << I << "const bool edge_r = " << (er ? "rr == " + std::to_string(rr.tiles - 1) + "u" : "false") << ";\n"
            << I << "const bool edge_c = " << (ec ? "rc == " + std::to_string(rc.tiles - 1) + "u" : "false") << ";\n"
            << I << "if (edge_r || edge_c) {\n"
            << I << "    const uint32_t vr = edge_r ? " << rr.size % 32 << "u : 32u, vc = edge_c ? " << rc.size % 32
            << "u : 32u;\n"
            << I << "    cb_reserve_back(" << p_.mask_cb << ", 1);\n"
            << I << "    uint16_t* m = reinterpret_cast<uint16_t*>(get_write_ptr(" << p_.mask_cb << "));\n"
            << I << "    for (uint32_t r = 0; r < 32; ++r)\n"
            << I << "        for (uint32_t c = 0; c < 32; ++c) m[face(r, c)] = r < vr && c < vc ? 0x3f80 : 0;\n"
            << I << "    cb_push_back(" << p_.mask_cb << ", 1);\n"
            << I << "}\n"
            << ind << "}\n";
    }

    const Plan& p_;
    const Kernel& k_;
    std::ostringstream os_;
};

}  // namespace

std::string reader_source(const Plan& p) { return Reader(p).source(); }

std::string writer_source(const Plan& p) {
    std::ostringstream os;
    const bool round_bf16 = p.out_staging_cb != UINT32_MAX;
    os << "// zyx: generated writer: output tile t is page t of the output buffer.\n"
       << "// Runtime args: core index, core count, the output's address. Compile-time args: its TensorAccessorArgs.\n";
    if (round_bf16)
        os << "// The result tiles come packed as f32 and are rounded to bf16 here (to nearest even; NaN stays NaN).\n";
    os << "#include <stdint.h>\n"
       << "#include \"api/dataflow/dataflow_api.h\"\n\n"
       << "void kernel_main() {\n";
    emit_work_split(os, "    ", p.out_tiles);
    os << "    constexpr auto args = TensorAccessorArgs<0>();\n"
       << "    const auto out = TensorAccessor(args, get_arg_val<uint32_t>(2), " << tile_size_bytes(p.out_format)
       << ");\n";
    if (round_bf16)
        os << "    cb_reserve_back(" << p.out_staging_cb << ", 1);  // the staging page, used as scratch\n"
           << "    uint16_t* staged = reinterpret_cast<uint16_t*>(get_write_ptr(" << p.out_staging_cb << "));\n";
    os << "    for (uint32_t t = start; t < start + count; ++t) {\n"
       << "        cb_wait_front(" << p.out_cb << ", 1);\n";
    if (round_bf16)
        os << "        const uint32_t* f = reinterpret_cast<const uint32_t*>(get_read_ptr(" << p.out_cb << "));\n"
           << "        for (uint32_t j = 0; j < 1024; ++j) {\n"
           << "            const uint32_t x = f[j];\n"
           << "            staged[j] = (x & 0x7fffffffu) > 0x7f800000u ? uint16_t((x >> 16) | 0x40u)\n"
           << "                                                        : uint16_t((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);\n"
           << "        }\n"
           << "        noc_async_write_page(t, out, uint32_t(reinterpret_cast<uintptr_t>(staged)));\n";
    else
        os << "        noc_async_write_page(t, out, get_read_ptr(" << p.out_cb << "));\n";
    os << "        noc_async_write_barrier();  // the page is free for reuse only when the write has landed\n"
       << "        cb_pop_front(" << p.out_cb << ", 1);\n"
       << "    }\n";
    if (round_bf16)  // hand the staging page back so the CB ends empty
        os << "    cb_push_back(" << p.out_staging_cb << ", 1);\n"
           << "    cb_wait_front(" << p.out_staging_cb << ", 1);\n"
           << "    cb_pop_front(" << p.out_staging_cb << ", 1);\n";
    os << "}\n";
    return os.str();
}

}  // namespace zyx::tt::codegen
