// PyTorch-style printing: the same number formats (integer mode "1.", fixed "0.1235", scientific
// "1.2346e+05"), right-aligned columns, 80-column wrapping, and "..." summaries above 1000
// elements (3 items at each edge), as torch/_tensor_str.py does.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

constexpr int kLineWidth = 80;
constexpr int64_t kThreshold = 1000;
constexpr int64_t kEdge = 3;
constexpr int kPrecision = 4;

// The values as doubles (floats, signed), or exact integers (ints), in row-major order.
struct Values {
    DType dtype;
    Shape shape;
    std::vector<double> f;
    std::vector<int64_t> i;
    std::vector<uint64_t> u;
    std::vector<bool> b;
};

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, kPrecision, v);  // allow-print: formats into a buffer
    return buf;
}

class Formatter {
public:
    Formatter(const Values& v, const std::vector<size_t>& shown) : v_(v) {
        if (!dtype_is_float(v.dtype)) {
            for (size_t k : shown) width_ = std::max(width_, raw(k).size());
            return;
        }
        double lo = INFINITY, hi = 0;
        bool any = false;
        for (size_t k : shown) {
            double x = v.f[k];
            if (!std::isfinite(x) || x == 0) continue;
            any = true;
            lo = std::min(lo, std::fabs(x));
            hi = std::max(hi, std::fabs(x));
            if (x != std::ceil(x)) int_mode_ = false;
        }
        if (!any) return;
        if (int_mode_) {
            sci_ = hi / lo > 1000.0 || hi > 1.0e8;
        } else {
            sci_ = hi / lo > 1000.0 || hi > 1.0e8 || lo < 1.0e-4;
        }
        for (size_t k : shown) {
            double x = v.f[k];
            if (!std::isfinite(x) || x == 0) continue;
            size_t w = sci_ ? fmt("%.*e", x).size() : int_mode_ ? fmt("%.0f", x).size() + 1 : fmt("%.*f", x).size();
            width_ = std::max(width_, w);
        }
    }

    size_t width() const { return width_; }

    std::string format(size_t k) const {
        std::string s = dtype_is_float(v_.dtype) ? float_str(v_.f[k]) : raw(k);
        if (s.size() < width_) s.insert(0, width_ - s.size(), ' ');
        return s;
    }

private:
    std::string raw(size_t k) const {
        if (v_.dtype == DType::bool_) return v_.b[k] ? "True" : "False";
        if (dtype_is_unsigned_int(v_.dtype)) return std::to_string(v_.u[k]);
        return std::to_string(v_.i[k]);
    }
    std::string float_str(double x) const {
        if (std::isnan(x)) return "nan";
        if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
        if (sci_) return fmt("%.*e", x);
        if (int_mode_) return fmt("%.0f", x) + ".";
        return fmt("%.*f", x);
    }
    const Values& v_;
    bool int_mode_ = true, sci_ = false;
    size_t width_ = 1;
};

struct Printer {
    const Values& v;
    bool summarize;
    std::vector<int64_t> strides;

    // Indices of axis `d` that are shown.
    std::vector<int64_t> shown(size_t d) const {
        int64_t n = v.shape[d];
        std::vector<int64_t> out;
        if (summarize && n > 2 * kEdge) {
            for (int64_t i = 0; i < kEdge; ++i) out.push_back(i);
            out.push_back(-1);  // "..."
            for (int64_t i = n - kEdge; i < n; ++i) out.push_back(i);
        } else {
            for (int64_t i = 0; i < n; ++i) out.push_back(i);
        }
        return out;
    }

    void collect(size_t d, size_t base, std::vector<size_t>& out) const {
        if (d == v.shape.size()) {
            out.push_back(base);
            return;
        }
        for (int64_t i : shown(d))
            if (i >= 0) collect(d + 1, base + size_t(i * strides[d]), out);
    }

    std::string vector_str(size_t base, int indent, const Formatter& f) const {
        size_t d = v.shape.size() - 1;
        size_t element = f.width() + 2;
        size_t per_line = std::max<size_t>(1, size_t(std::floor(double(kLineWidth - indent) / double(element))));
        std::vector<std::string> data;
        for (int64_t i : shown(d)) data.push_back(i < 0 ? " ..." : f.format(base + size_t(i * strides[d])));
        std::string s = "[";
        for (size_t k = 0; k < data.size(); ++k) {
            if (k && k % per_line == 0) {
                s += ",\n";
                s.append(size_t(indent + 1), ' ');
            } else if (k) {
                s += ", ";
            }
            s += data[k];
        }
        return s + "]";
    }

    std::string tensor_str(size_t d, size_t base, int indent, const Formatter& f) const {
        size_t dim = v.shape.size() - d;
        if (dim == 1) return vector_str(base, indent, f);
        std::string sep = ",";
        sep.append(dim - 1, '\n');
        sep.append(size_t(indent + 1), ' ');
        std::string s = "[";
        bool first = true;
        for (int64_t i : shown(d)) {
            if (!first) s += sep;
            first = false;
            s += i < 0 ? "..." : tensor_str(d + 1, base + size_t(i * strides[d]), indent + 1, f);
        }
        return s + "]";
    }
};

Values values_of(const Tensor& t) {
    Values v;
    v.dtype = t.dtype();
    v.shape = t.shape();
    if (dtype_is_float(v.dtype))
        v.f = t.to_vector<double>();
    else if (v.dtype == DType::bool_)
        v.b = t.to_vector<bool>();
    else if (dtype_is_unsigned_int(v.dtype))
        v.u = t.to_vector<uint64_t>();
    else
        v.i = t.to_vector<int64_t>();
    return v;
}

}  // namespace

std::string Tensor::to_string() const {
    const NodePtr& n = node_of(*this, "to_string");
    const std::string prefix = "tensor(";
    const int indent = int(prefix.size());
    std::vector<std::string> suffixes;
    if (!(n->device == Device::host())) suffixes.push_back("device='" + n->device.str() + "'");
    std::string body;
    if (n->numel() == 0) {
        if (n->shape.size() != 1) {
            std::string sz = "size=(";
            for (size_t d = 0; d < n->shape.size(); ++d) {
                if (d) sz += ", ";
                sz += std::to_string(n->shape[d]);
            }
            suffixes.push_back(sz + (n->shape.size() == 1 ? ",)" : ")"));
        }
        body = "[]";
    } else {
        Values v = values_of(*this);
        Printer p{v, n->numel() > kThreshold, {}};
        p.strides.assign(v.shape.size(), 1);
        for (size_t d = v.shape.size(); d-- > 1;) p.strides[d - 1] = p.strides[d] * v.shape[d];
        std::vector<size_t> shown;
        p.collect(0, 0, shown);
        Formatter f(v, shown);
        body = v.shape.empty() ? f.format(0) : p.tensor_str(0, 0, indent, f);
    }
    // As PyTorch: no dtype for the default float (f32), int64 and bool; an empty tensor shows every
    // dtype but f32 (there are no values to tell it by).
    bool implied = n->dtype == DType::f32 || (n->numel() != 0 && (n->dtype == DType::i64 || n->dtype == DType::bool_));
    if (!implied) suffixes.push_back("dtype=" + dname(n->dtype));
    std::string s = prefix + body;
    for (const std::string& suf : suffixes) {
        size_t last = s.size() - (s.rfind('\n') == std::string::npos ? 0 : s.rfind('\n') + 1);
        if (last + suf.size() + 2 > size_t(kLineWidth)) {
            s += ",\n";
            s.append(size_t(indent), ' ');
        } else {
            s += ", ";
        }
        s += suf;
    }
    return s + ")";
}

std::ostream& operator<<(std::ostream& os, const Tensor& x) { return os << x.to_string(); }

}  // namespace zyx
