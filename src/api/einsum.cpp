// einsum: Einstein summation lowered to permutes, diagonals, broadcasts, a product and a sum.
#include <algorithm>
#include <map>

#include "api/internal.hpp"

namespace zyx {

using namespace api;

namespace {

bool is_label(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

// x with its axes `a` and `b` (a < b, equal sizes) replaced by their diagonal, at position a.
Tensor take_diagonal(const Tensor& x, int a, int b) {
    std::vector<int> perm;
    for (int d = 0; d < int(x.dim()); ++d)
        if (d != a && d != b) perm.push_back(d);
    perm.insert(perm.begin() + a, {a, b});  // the pair together at a
    Tensor p = x.permute(perm);
    const int64_t n = x.size(a);
    Shape s = p.shape();
    s.erase(s.begin() + a, s.begin() + a + 2);
    s.insert(s.begin() + a, n * n);
    // In the flattened n·n axis the diagonal is every (n + 1)-th element.
    return p.reshape(s).slice(a, 0, n * n, n + 1);
}

}  // namespace

Tensor einsum(const std::string& equation, const std::vector<Tensor>& operands) {
    const char* op = "einsum";
    // ---- parse ----------------------------------------------------------------------------------
    std::string eq;
    for (char c : equation)
        if (c != ' ') eq += c;
    if (eq.find("...") != std::string::npos)
        unsupported(op, "ellipsis (\"...\") in '" + equation + "' is not supported yet");
    const size_t arrow = eq.find("->");
    const std::string lhs = eq.substr(0, arrow);
    std::vector<std::string> subscripts(1);
    for (char c : lhs) {
        if (c == ',')
            subscripts.emplace_back();
        else if (is_label(c))
            subscripts.back() += c;
        else
            invalid(op, "'" + equation + "': '" + std::string(1, c) + "' is not a label (labels are letters)");
    }
    if (subscripts.size() != operands.size())
        invalid(op,
                "'" + equation + "' names " + std::to_string(subscripts.size()) + " operands, got " +
                    std::to_string(operands.size()));
    std::map<char, int> count;
    for (const std::string& in : subscripts)
        for (char c : in) ++count[c];
    std::string out;
    if (arrow == std::string::npos) {
        for (auto [c, n] : count)
            if (n == 1) out += c;
    } else {
        out = eq.substr(arrow + 2);
        for (char c : out) {
            if (!is_label(c))
                invalid(op, "'" + equation + "': '" + std::string(1, c) + "' in the output is not a label");
            if (!count.count(c))
                invalid(op, "'" + equation + "': output label '" + std::string(1, c) + "' is in no operand");
            if (std::count(out.begin(), out.end(), c) > 1)
                invalid(op, "'" + equation + "': output label '" + std::string(1, c) + "' appears twice");
        }
    }
    // ---- check operands and sizes ---------------------------------------------------------------
    std::map<char, int64_t> size;
    DType t = DType::bool_;
    for (size_t i = 0; i < operands.size(); ++i) {
        const Tensor& x = operands[i];
        node_of(x, op);
        if (i > 0) same_device(op, node_of(operands[0], op), node_of(x, op));
        if (x.dim() != subscripts[i].size())
            invalid(op,
                    "'" + equation + "': operand " + std::to_string(i) + " has " + std::to_string(x.dim()) + " axes " +
                        shape_str(x.shape()) + " but " + std::to_string(subscripts[i].size()) + " labels '" +
                        subscripts[i] + "'");
        for (size_t d = 0; d < subscripts[i].size(); ++d) {
            const char c = subscripts[i][d];
            auto [it, fresh] = size.emplace(c, x.size(int(d)));
            if (!fresh && it->second != x.size(int(d)))
                invalid(op,
                        "'" + equation + "': label '" + std::string(1, c) + "' has size " + std::to_string(it->second) +
                            " and size " + std::to_string(x.size(int(d))) + " (operand " + std::to_string(i) + " " +
                            shape_str(x.shape()) + ")");
        }
        t = i == 0 ? x.dtype() : promote(t, x.dtype());
    }
    if (operands.empty()) invalid(op, "'" + equation + "' needs at least one operand");
    if (t == DType::bool_) invalid(op, "not defined on bool tensors");
    // The product's axes: the output's labels, then the contracted ones (so a single contracted
    // label is the last axis, matmul's form).
    std::string order = out;
    for (auto [c, n] : count)
        if (out.find(c) == std::string::npos) order += c;
    return composite(op, [&] {
        Tensor prod;
        for (size_t i = 0; i < operands.size(); ++i) {
            Tensor x = operands[i].cast(t);
            std::string labels = subscripts[i];
            // Repeated labels: their diagonal.
            for (size_t a = 0; a < labels.size(); ++a)
                for (size_t b = labels.size(); b-- > a + 1;)
                    if (labels[b] == labels[a]) {
                        x = take_diagonal(x, int(a), int(b));
                        labels.erase(b, 1);
                    }
            // Permute into `order` and add size-1 axes for the labels it lacks.
            std::vector<int> perm;
            Shape s;
            for (char c : order) {
                size_t at = labels.find(c);
                if (at != std::string::npos) perm.push_back(int(at));
                s.push_back(at != std::string::npos ? size[c] : 1);
            }
            x = x.permute(perm).reshape(s);
            prod = prod.defined() ? prod * x : x;
        }
        std::vector<int> contracted;
        for (size_t d = out.size(); d < order.size(); ++d) contracted.push_back(int(d));
        return contracted.empty() ? prod : prod.sum(contracted);
    });
}

}  // namespace zyx
