// The seed dialect (docs/protocol.md, "The seed dialect"): a real zyx-tt-runtime driven with
// requests built the way the Rust zyx 0.17 client builds them, replies read the way it reads them
// (the text between the first two quotes after a key; "error" anywhere means failure), bulk data
// through one shared-memory object per transfer.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <optional>
#include <sstream>

#include "emu/device.hpp"
#include "runtime_test_util.hpp"

using namespace zyx;
using namespace zyx::tt;

namespace {

// The seed's reply reader: finds "key", skips `"key":`, returns the text between the next two
// quotes. nullopt where the seed's reader gives None (or would panic on a too-short reply).
std::optional<std::string> extract_json_str(const std::string& json, const std::string& key) {
    size_t k = json.find("\"" + key + "\"");
    if (k == std::string::npos || k + key.size() + 3 > json.size()) return std::nullopt;
    std::string after = json.substr(k + key.size() + 3);
    size_t start = after.find('"');
    if (start == std::string::npos) return std::nullopt;
    ++start;
    size_t end = after.find('"', start);
    if (end == std::string::npos) return std::nullopt;
    return after.substr(start, end - start);
}

bool seed_is_error(const std::string& resp) { return resp.find("\"error\"") != std::string::npos; }

std::string hex(uint64_t v) {
    std::ostringstream s;
    s << std::hex << v;
    return s.str();
}

// A transfer's shared-memory object as the seed makes it: "/zyx-tt-<pid>-<ns>" in hex,
// O_CREAT | O_EXCL, mode 0600, ftruncate to the size, mapped; unlinked at the end.
struct SeedShm {
    explicit SeedShm(size_t bytes) : size(bytes) {
        static uint64_t n = 0;
        auto ns = std::chrono::system_clock::now().time_since_epoch().count();
        name = "/zyx-tt-" + hex(uint64_t(::getpid())) + "-" + hex(uint64_t(ns) + n++);
        int fd = ::shm_open(name.c_str(), O_CREAT | O_RDWR | O_EXCL, 0600);
        if (fd < 0) throw std::runtime_error("shm_open " + name);
        if (::ftruncate(fd, off_t(bytes)) != 0) throw std::runtime_error("ftruncate " + name);
        void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) throw std::runtime_error("mmap " + name);
        ::fchmod(fd, 0600);
        fd_ = fd;
        data = static_cast<uint8_t*>(p);
    }
    ~SeedShm() {
        ::munmap(data, size);
        ::close(fd_);
        ::shm_unlink(name.c_str());
    }
    std::string name;
    uint8_t* data = nullptr;
    size_t size = 0;
    int fd_ = -1;
};

// The seed's requests, written as its format! strings write them.
std::string seed_init(const std::string& cache_dir) { return R"({"cmd":"init","cache_dir":")" + cache_dir + R"("})"; }
std::string seed_alloc(uint64_t size) {
    return R"({"cmd":"alloc_buf","size":)" + std::to_string(size) + R"(,"tile_bytes":2048})";
}
std::string seed_free(uint32_t index) { return R"({"cmd":"free_buf","index":)" + std::to_string(index) + "}"; }
std::string seed_transfer(const char* cmd, uint32_t index, const std::string& shm_path, uint64_t size) {
    return std::string(R"({"cmd":")") + cmd + R"(","index":)" + std::to_string(index) + R"(,"shm_path":")" + shm_path +
        R"(","size":)" + std::to_string(size) + "}";
}

struct SeedCb {
    uint32_t cb, fmt, tb, nt;
};
std::string seed_compile(uint32_t id, const std::string& reader, const std::string& compute, const std::string& writer,
                         const std::vector<SeedCb>& cbs, uint32_t n_params, const std::vector<uint32_t>& rp,
                         const std::vector<uint32_t>& cp, const std::vector<uint32_t>& wp, bool fp32) {
    std::string c = R"({"cmd":"compile_program","id":)" + std::to_string(id) + R"(,"reader_source_len":)" +
        std::to_string(reader.size()) + R"(,"compute_source_len":)" + std::to_string(compute.size()) +
        R"(,"writer_source_len":)" + std::to_string(writer.size()) + R"(,"n_cbs":)" + std::to_string(cbs.size()) +
        R"(,"n_params":)" + std::to_string(n_params) + R"(,"n_reader_params":)" + std::to_string(rp.size()) +
        R"(,"n_compute_params":)" + std::to_string(cp.size()) + R"(,"n_writer_params":)" + std::to_string(wp.size()) +
        R"(,"fp32_dest_acc":)" + (fp32 ? "1" : "0");
    for (size_t i = 0; i < rp.size(); ++i) c += R"(,"rp)" + std::to_string(i) + R"(":)" + std::to_string(rp[i]);
    for (size_t i = 0; i < cp.size(); ++i) c += R"(,"cp)" + std::to_string(i) + R"(":)" + std::to_string(cp[i]);
    for (size_t i = 0; i < wp.size(); ++i) c += R"(,"wp)" + std::to_string(i) + R"(":)" + std::to_string(wp[i]);
    for (size_t i = 0; i < cbs.size(); ++i) {
        const std::string n = std::to_string(i);
        c += R"(,"cb_idx)" + n + R"(":)" + std::to_string(cbs[i].cb) + R"(,"cb_fmt)" + n + R"(":)" +
            std::to_string(cbs[i].fmt) + R"(,"cb_tb)" + n + R"(":)" + std::to_string(cbs[i].tb) + R"(,"cb_nt)" + n +
            R"(":)" + std::to_string(cbs[i].nt);
    }
    return c + "}";
}
std::string seed_run(uint32_t id, const std::vector<uint32_t>& src, const std::vector<uint32_t>& dst, uint32_t gd0,
                     uint32_t gd1, const std::vector<std::pair<uint32_t, uint32_t>>& vars) {
    std::string c = R"({"cmd":"run","id":)" + std::to_string(id) + R"(,"gd0":)" + std::to_string(gd0) + R"(,"gd1":)" +
        std::to_string(gd1) + R"(,"n_vars":)" + std::to_string(vars.size());
    for (size_t i = 0; i < src.size(); ++i) c += R"(,"src)" + std::to_string(i) + R"(":)" + std::to_string(src[i]);
    for (size_t i = 0; i < dst.size(); ++i) c += R"(,"dst)" + std::to_string(i) + R"(":)" + std::to_string(dst[i]);
    for (size_t i = 0; i < vars.size(); ++i)
        c += R"(,"vord)" + std::to_string(i) + R"(":)" + std::to_string(vars[i].first) + R"(,"vval)" +
            std::to_string(i) + R"(":)" + std::to_string(vars[i].second);
    return c + "}";
}

// A runtime driven as the seed drives it: a line, then (compile_program) the raw sources with
// nothing after them; the reply is the next line that starts with '{'.
struct SeedSession {
    explicit SeedSession(std::vector<std::string> args = {}) : rt(std::move(args)) {}
    std::string send(const std::string& line, const std::string& raw = "") {
        rt.proc->send(line + "\n" + raw, 10000, "seed request");
        return receive();
    }
    std::string receive() {
        std::string resp = rt.proc->receive_line(60000, "seed request");
        EXPECT_FALSE(resp.empty() || resp[0] != '{') << "the seed skips a reply that does not start with '{': " << resp;
        return resp;
    }
    // A reply the seed takes for success.
    std::string ok(const std::string& line, const std::string& raw = "") {
        std::string resp = send(line, raw);
        EXPECT_FALSE(seed_is_error(resp)) << line.substr(0, 200) << " failed: " << resp;
        return resp;
    }
    // A reply the seed takes for failure, whose msg (as the seed reads it) holds `fragment`.
    void error(const std::string& line, const std::string& fragment, const std::string& raw = "") {
        expect_error(send(line, raw), fragment);
    }
    static void expect_error(const std::string& resp, const std::string& fragment) {
        ASSERT_TRUE(seed_is_error(resp)) << "expected an error reply, got " << resp;
        std::optional<std::string> msg = extract_json_str(resp, "msg");
        ASSERT_TRUE(msg.has_value()) << "the seed would panic: no msg in " << resp;
        // What the seed reads is the whole message: no quote or escape cuts it short.
        EXPECT_EQ(*msg, nlohmann::json::parse(resp)["msg"].get<std::string>()) << resp;
        EXPECT_NE(msg->find(fragment), std::string::npos) << "msg '" << *msg << "' lacks '" << fragment << "'";
    }
    uint32_t alloc(uint64_t size) {
        std::string resp = ok(seed_alloc(size));
        std::optional<std::string> idx = extract_json_str(resp, "index");
        EXPECT_TRUE(idx.has_value()) << resp;
        return idx ? uint32_t(std::stoul(*idx)) : 0;
    }
    void write(uint32_t index, const std::vector<uint8_t>& bytes) {
        SeedShm shm(bytes.size());
        std::memcpy(shm.data, bytes.data(), bytes.size());
        ok(seed_transfer("write_buf", index, shm.name, bytes.size()));
    }
    std::vector<uint8_t> read(uint32_t index, size_t bytes) {
        SeedShm shm(bytes);
        ok(seed_transfer("read_buf", index, shm.name, bytes));
        return std::vector<uint8_t>(shm.data, shm.data + bytes);
    }
    test::RawRuntime rt;
};

// ---- a generated program in the shape of the seed's generator ------------------------------------
// out = x + y in bf16 over a 2 x 3 grid of cores, k tiles per core. Params in head order:
// 0 = x (Global), 1 = k (Variable), 2 = y (Global), 3 = out (GlobalMut). Each section's runtime
// args: its own params in head order, then gidx0 (row), gidx1 (col). Per-element NoC transfers
// addressed as {.page_id, .offset_bytes} in 4096-byte DRAM pages; the grid's column count is a
// constant of the source, as the generator writes constant group sizes.
const char* kReader = R"(#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/noc_traits.h"
void kernel_main() {
    Noc noc;
    uint32_t p0 = get_arg_val<uint32_t>(0);
    uint32_t p1 = get_arg_val<uint32_t>(1);
    uint32_t p2 = get_arg_val<uint32_t>(2);
    uint32_t gidx0 = get_arg_val<uint32_t>(3);
    uint32_t gidx1 = get_arg_val<uint32_t>(4);
    auto args0 = TensorAccessorArgs<0>(0);
    auto g0 = TensorAccessor(args0, p0, 4096);
    auto args1 = TensorAccessorArgs<2>(1);
    auto g1 = TensorAccessor(args1, p2, 4096);
    CircularBuffer cb0(tt::CBIndex::c_0);
    CircularBuffer cb1(tt::CBIndex::c_1);
    for (uint32_t t = 0; t < p1; ++t) {
        cb0.reserve_back(1);
        cb1.reserve_back(1);
        for (uint32_t l = 0; l < 1024; ++l) {
            uint32_t idx = ((gidx0 * 3 + gidx1) * p1 + t) * 1024 + l;
            noc.async_read(g0, cb0, 2, {.page_id = idx * 2 / 4096, .offset_bytes = idx * 2 % 4096}, {.offset_bytes = l * 2});
            noc.async_read(g1, cb1, 2, {.page_id = idx * 2 / 4096, .offset_bytes = idx * 2 % 4096}, {.offset_bytes = l * 2});
        }
        noc.async_read_barrier();
        cb0.push_back(1);
        cb1.push_back(1);
    }
}
)";

const char* kCompute = R"(#include <cstdint>
#include "api/compute/common.h"
#include "api/compute/compute_kernel_api.h"
#include "api/compute/eltwise_binary_sfpu.h"
#include "api/compute/tile_move_copy.h"
#include "api/compute/eltwise_unary/eltwise_unary.h"
#include "api/dataflow/circular_buffer.h"
void kernel_main() {
    uint32_t p1 = get_arg_val<uint32_t>(0);
    CircularBuffer cb0(tt::CBIndex::c_0);
    CircularBuffer cb1(tt::CBIndex::c_1);
    CircularBuffer cb16(tt::CBIndex::c_16);
    init_sfpu(0, 16);
    add_binary_tile_init();
    for (uint32_t t = 0; t < p1; ++t) {
        cb0.wait_front(1);
        cb1.wait_front(1);
        tile_regs_acquire();
        copy_tile(0, 0, 0);
        copy_tile(1, 0, 1);
        add_binary_tile(0, 1, 0);
        tile_regs_commit();
        tile_regs_wait();
        cb16.reserve_back(1);
        pack_tile(0, 16);
        cb0.pop_front(1);
        cb1.pop_front(1);
        tile_regs_release();
        cb16.push_back(1);
    }
}
)";

const char* kWriter = R"(#include <cstdint>
#include "api/dataflow/dataflow_api.h"
#include "api/dataflow/noc.h"
#include "api/dataflow/circular_buffer.h"
#include "api/tensor/noc_traits.h"
void kernel_main() {
    Noc noc(1);
    uint32_t p1 = get_arg_val<uint32_t>(0);
    uint32_t p3 = get_arg_val<uint32_t>(1);
    uint32_t gidx0 = get_arg_val<uint32_t>(2);
    uint32_t gidx1 = get_arg_val<uint32_t>(3);
    auto args0 = TensorAccessorArgs<0>(0);
    auto g0 = TensorAccessor(args0, p3, 4096);
    CircularBuffer cb16(tt::CBIndex::c_16);
    for (uint32_t t = 0; t < p1; ++t) {
        cb16.wait_front(1);
        for (uint32_t l = 0; l < 1024; ++l) {
            uint32_t idx = ((gidx0 * 3 + gidx1) * p1 + t) * 1024 + l;
            noc.async_write(use<CircularBuffer::AddrSelector::READ_PTR>(cb16), g0, 2, {.offset_bytes = l * 2},
                            {.page_id = idx * 2 / 4096, .offset_bytes = idx * 2 % 4096});
        }
        noc.async_write_barrier();
        cb16.pop_front(1);
    }
}
)";

uint16_t bf16(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint16_t(u >> 16);  // the values below are exact in bf16
}
float from_bf16(uint16_t h) {
    uint32_t u = uint32_t(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

std::vector<uint8_t> bf16_bytes(const std::vector<float>& v) {
    std::vector<uint8_t> out(v.size() * 2);
    for (size_t i = 0; i < v.size(); ++i) {
        uint16_t h = bf16(v[i]);
        std::memcpy(out.data() + 2 * i, &h, 2);
    }
    return out;
}

TEST(SeedDialect, ReplaysElementwiseProgramOverSeveralCores) {
    SeedSession s;
    s.ok(seed_init("/tmp/zyx-seed-cache-unused"));
    // grid: rows and cols as the seed reads them (strings), the emulated chip's worker grid.
    std::string g = s.ok(R"({"cmd":"grid"})");
    emu::DeviceSpec spec = emu::preset("wormhole-n150");
    ASSERT_EQ(extract_json_str(g, "rows").value_or("none"), std::to_string(spec.grid_y)) << g;
    ASSERT_EQ(extract_json_str(g, "cols").value_or("none"), std::to_string(spec.grid_x)) << g;

    const uint32_t gd0 = 2, gd1 = 3, k = 2, count = gd0 * gd1 * k * 1024;
    std::vector<float> x(count), y(count);
    for (uint32_t i = 0; i < count; ++i) {
        x[i] = float(int(i % 64) - 32) * 0.5f;
        y[i] = float(int((i / 7) % 50) - 25);
    }
    uint32_t bx = s.alloc(count * 2), by = s.alloc(count * 2), bout = s.alloc(count * 2);
    EXPECT_TRUE(bx != by && by != bout && bx != bout);
    s.write(bx, bf16_bytes(x));
    s.write(by, bf16_bytes(y));
    s.write(bout, std::vector<uint8_t>(count * 2, 0xff));  // NaNs wherever no core writes

    // CB 0, 1: inputs, CB 16: output; tt::DataFormat Float16_b (5), 2048-byte tiles, 2 tiles each.
    std::vector<SeedCb> cbs = {{0, 5, 2048, 2}, {1, 5, 2048, 2}, {16, 5, 2048, 2}};
    const uint32_t id = 0;  // the seed's first program id
    s.ok(seed_compile(id, kReader, kCompute, kWriter, cbs, 4, {0, 1, 2}, {1}, {1, 3}, false),
         std::string(kReader) + kCompute + kWriter);
    s.ok(seed_run(id, {bx, by}, {bout}, gd0, gd1, {{1, k}}));

    std::vector<uint8_t> got = s.read(bout, count * 2);
    size_t bad = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint16_t h;
        std::memcpy(&h, got.data() + 2 * i, 2);
        float want = x[i] + y[i];
        if (from_bf16(h) != want && bad++ < 5)
            ADD_FAILURE() << "element " << i << ": " << from_bf16(h) << " != " << want;
    }
    EXPECT_EQ(bad, 0u) << "of " << count << " elements";
    // The inputs are as written.
    std::vector<uint8_t> xb = s.read(bx, count * 2);
    EXPECT_EQ(xb, bf16_bytes(x));

    // A second launch on another grid, from the same compiled program: one core row, k = 4.
    s.write(bout, std::vector<uint8_t>(count * 2, 0xff));
    // One row of 3 cores with 4 tiles each covers the same 12 tiles (core index = gidx0 * 3 + gidx1).
    s.ok(seed_run(id, {bx, by}, {bout}, 1, 3, {{1, 4}}));
    got = s.read(bout, count * 2);
    bad = 0;
    for (uint32_t i = 0; i < count; ++i) {
        uint16_t h;
        std::memcpy(&h, got.data() + 2 * i, 2);
        if (from_bf16(h) != x[i] + y[i]) ++bad;
    }
    EXPECT_EQ(bad, 0u) << "second launch";

    s.ok(seed_free(bx));
    s.ok(seed_free(by));
    s.ok(seed_free(bout));
    s.ok(R"({"cmd":"exit"})");
}

TEST(SeedDialect, FaultsGetSeedErrorsAndTheRuntimeKeepsServing) {
    SeedSession s({"--raw-timeout-ms", "300"});
    s.ok(seed_init("/tmp/zyx-seed-cache-unused"));
    std::vector<uint8_t> pattern(8192);
    for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = uint8_t(i * 13 + 1);
    const uint32_t a = s.alloc(pattern.size());
    s.write(a, pattern);

    // Unknown indices.
    s.error(seed_free(999), "unknown buffer index 999");
    {
        SeedShm shm(16);
        s.error(seed_transfer("write_buf", 999, shm.name, 16), "unknown buffer index 999");
        s.error(seed_transfer("read_buf", 999, shm.name, 16), "unknown buffer index 999");
    }
    s.error(seed_run(42, {a}, {}, 1, 1, {}), "unknown program id");

    // Shared-memory objects: missing, a symbolic link, the wrong size, group/other access.
    const std::string missing = "/zyx-tt-missing-" + hex(uint64_t(::getpid()));
    s.error(seed_transfer("write_buf", a, missing, 16), "no such shared-memory object");
    {
        SeedShm target(pattern.size());
        std::memset(target.data, 0x5a, target.size);
        const std::string link = "/zyx-tt-link-" + hex(uint64_t(::getpid()));
        const std::string link_path = "/dev/shm" + link;
        ::unlink(link_path.c_str());
        ASSERT_EQ(::symlink(("/dev/shm" + target.name).c_str(), link_path.c_str()), 0);
        s.error(seed_transfer("write_buf", a, link, pattern.size()), "symbolic link");
        ::unlink(link_path.c_str());
    }
    {
        SeedShm small(100);
        s.error(seed_transfer("write_buf", a, small.name, 4096), "holds 100 bytes");
        s.error(seed_transfer("read_buf", a, small.name, 64), "holds 100 bytes");
    }
    {
        SeedShm open_to_all(64);
        ASSERT_EQ(::fchmod(open_to_all.fd_, 0644), 0);
        s.error(seed_transfer("write_buf", a, open_to_all.name, 64), "mode 0600");
    }
    {
        SeedShm big(pattern.size() * 2);
        s.error(seed_transfer("write_buf", a, big.name, big.size), "exceeds buffer index");
    }
    s.error(seed_transfer("write_buf", a, "/../etc/passwd", 16), "not a shared-memory name");

    // A short source: the line declares 5000 reader bytes, 10 arrive, the input goes idle.
    const std::string tiny = "void kernel_main() {}\n";
    std::string line = seed_compile(7, std::string(5000, ' '), "", "", {}, 0, {}, {}, {}, false);
    s.error(line, "declares 5000 bytes but only 10 arrived", std::string(10, ' '));
    s.ok(R"({"cmd":"grid"})");

    // A refused compile_program still consumes its sources: the grid request pipelined behind them
    // is answered as a request of its own.
    line = seed_compile(8, tiny, tiny, tiny, {{99, 5, 2048, 2}}, 0, {}, {}, {}, false);
    s.rt.proc->send(line + "\n" + tiny + tiny + tiny + R"({"cmd":"grid"})" + "\n", 10000, "pipelined");
    SeedSession::expect_error(s.receive(), "CB 99");
    EXPECT_FALSE(seed_is_error(s.receive())) << "the grid request behind the refused sources";
    // A CB whose tile size does not match its format, a param ordinal out of range, a field
    // nobody reads: each refused, each consuming its sources.
    s.error(seed_compile(8, tiny, tiny, tiny, {{0, 5, 4096, 2}}, 0, {}, {}, {}, false), "is not the tile size 2048",
            tiny + tiny + tiny);
    s.error(seed_compile(8, tiny, tiny, tiny, {}, 2, {0, 2}, {}, {}, false), "rp1 = 2 is not a param ordinal",
            tiny + tiny + tiny);
    s.error(R"({"cmd":"grid","rows":1})", "unknown field 'rows'");
    s.error(R"({"cmd":"hello","version":1})", "unknown command 'hello'");
    s.error(R"({"cmd":"init","cache_dir":"/tmp"})", "already initialized");

    // A run that does not match its program's params.
    s.ok(seed_compile(9, tiny, tiny, tiny, {}, 2, {0}, {}, {1}, false), tiny + tiny + tiny);
    s.error(seed_run(9, {a}, {}, 1, 1, {}), "has 2 params, but 1 src + 0 dst + 0 vars");
    s.error(seed_run(9, {a}, {999}, 1, 1, {}), "dst0: unknown buffer index 999");
    s.error(seed_run(9, {a}, {a}, 0, 1, {}), "must have cores");
    s.ok(seed_run(9, {a}, {a}, 1, 2, {}));
    // A compiler error: its quotes and newlines reach the seed as text it reads whole. The id is
    // the seed's to reuse; the program it held is dropped with the failed one.
    const std::string broken = "void kernel_main() { \"not C++\" }\n";
    s.error(seed_compile(9, broken, tiny, tiny, {}, 2, {0}, {}, {1}, false), "kernel_compilation",
            broken + tiny + tiny);
    s.error(seed_run(9, {a}, {a}, 1, 2, {}), "unknown program id");
    // A value of the wrong JSON type is named with the value (its quotes as ').
    s.error(R"({"cmd":"alloc_buf","size":"12","tile_bytes":2048})", "must be an unsigned integer, got '12'");

    // Still serving, the buffer intact.
    EXPECT_EQ(s.read(a, pattern.size()), pattern);
    s.ok(seed_free(a));
    s.error(seed_free(a), "unknown buffer index");
}

// A runtime whose target cannot start answers the seed in the seed's form (the seed reads "msg"
// of every error), consumes compile_program sources, and ends on exit.
TEST(SeedDialect, UnavailableTargetAnswersInTheSeedsForm) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("fails the target through --preset, an emulator target option");
    SeedSession s({"--preset", "no-such-chip", "--raw-timeout-ms", "300"});
    s.error(seed_init("/tmp"), "no-such-chip");
    s.error(R"({"cmd":"grid"})", "no-such-chip");
    const std::string tiny = "void kernel_main() {}\n";
    s.error(seed_compile(1, tiny, tiny, tiny, {}, 0, {}, {}, {}, false), "no-such-chip", tiny + tiny + tiny);
    s.ok(R"({"cmd":"exit"})");
}

// A second runtime for a busy device says so to the seed, in the seed's form.
TEST(SeedDialect, BusyDeviceAnswersInTheSeedsForm) {
    const std::string dir = test::temp_dir("seed-busy").string();
    SeedSession first({"--lock-dir", dir});
    first.ok(seed_init("/tmp"));
    SeedSession second({"--lock-dir", dir});
    second.error(seed_init("/tmp"), "device_busy");
}

// The dialect is chosen by the first line only: a session that said hello stays in ours.
TEST(SeedDialect, InitAfterHelloIsOurProtocolsError) {
    test::RawRuntime rt;
    rt.ok(R"({"cmd":"hello","version":1})");
    nlohmann::json j = rt.request(R"({"cmd":"init","cache_dir":"/tmp"})");
    EXPECT_EQ(j.value("ok", true), false) << j.dump();
    EXPECT_EQ(j["error"]["status"], "protocol") << j.dump();
}

}  // namespace
