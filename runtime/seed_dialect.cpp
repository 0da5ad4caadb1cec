#include "seed_dialect.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/tenstorrent/protocol.hpp"
#include "core/log.hpp"

namespace zyx::tt::runtime::seed {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

namespace {

// The directory POSIX shared-memory names live in on Linux (shm_open("/name") = /dev/shm/name).
constexpr const char* kShmDir = "/dev/shm";
// The most parameters (and so runtime-arg words before the two grid coordinates) a kernel takes.
constexpr uint64_t kMaxParams = protocol::kMaxRuntimeArgs - 2;
// The DRAM page of every seed-dialect buffer: the seed's kernels address their buffers in pages of
// 4096 bytes (TensorAccessor(args, address, 4096), page_id = byte / 4096; docs/protocol.md, "The
// seed dialect").
constexpr uint32_t kSeedPageBytes = 4096;
// tt-metal's TensorAccessorArgs ArgConfig bit of an interleaved DRAM buffer (IsDram = 1 << 1).
constexpr uint32_t kAccessorIsDram = 2;

// The message as the seed can read it: its reader stops at the first '"', and shows escapes
// verbatim, so quotes become ' and backslashes and control characters become plain text.
std::string seed_text(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        if (c == '"')
            out += '\'';
        else if (c == '\\')
            out += '/';
        else if (c == '\n')
            out += " | ";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            out += ' ';
        else
            out += c;
    }
    return out;
}

std::string dump(const ojson& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string ok_reply(std::initializer_list<std::pair<const char*, uint64_t>> values = {}) {
    ojson j;
    j["status"] = "ok";
    for (const auto& [k, v] : values) j[k] = std::to_string(v);  // the seed reads numbers as strings
    return dump(j);
}

std::string grid_str(protocol::Grid g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

// Reads the fields of one request, remembering which ones were read, so that every field the
// request carries and no command reads is refused by name (a misspelt field is never a default).
class Fields {
public:
    Fields(const json& j, std::string cmd, ErrorStatus status) : j_(j), cmd_(std::move(cmd)), status_(status) {}

    bool has(const std::string& key) const { return j_.contains(key); }

    uint64_t u64(const std::string& key, uint64_t max) {
        auto it = j_.find(key);
        if (it == j_.end()) throw Error(ErrorStatus::Protocol, cmd_ + ": missing field '" + key + "'");
        used_.insert(key);
        if (!it->is_number_unsigned())
            throw Error(ErrorStatus::Protocol,
                        cmd_ + ": field '" + key + "' must be an unsigned integer, got " +
                            it->dump(-1, ' ', false, json::error_handler_t::replace));
        uint64_t v = it->get<uint64_t>();
        if (v > max)
            throw Error(status_, cmd_ + ": " + key + " " + std::to_string(v) + " exceeds " + std::to_string(max));
        return v;
    }
    uint32_t u32(const std::string& key, uint64_t max = UINT32_MAX) {
        return uint32_t(u64(key, std::min<uint64_t>(max, UINT32_MAX)));
    }

    std::string str(const std::string& key) {
        auto it = j_.find(key);
        if (it == j_.end()) throw Error(ErrorStatus::Protocol, cmd_ + ": missing field '" + key + "'");
        used_.insert(key);
        if (!it->is_string()) throw Error(ErrorStatus::Protocol, cmd_ + ": field '" + key + "' must be a string");
        return it->get<std::string>();
    }

    // Refuses the first field no reader asked for.
    void no_others() const {
        for (auto it = j_.begin(); it != j_.end(); ++it)
            if (!used_.count(it.key())) throw Error(ErrorStatus::Protocol, cmd_ + ": unknown field '" + it.key() + "'");
    }

private:
    const json& j_;
    std::string cmd_;
    ErrorStatus status_;
    std::set<std::string> used_{"cmd"};
};

// One shared-memory object of a transfer, opened and mapped; unmapped and closed on scope exit.
class ShmObject {
public:
    // Opens `name` ("/" + 1..200 characters without '/'), checks it and maps `bytes` of it.
    ShmObject(const std::string& ctx, const std::string& name, uint64_t bytes, bool writable, ErrorStatus st) {
        auto bad = [&](const std::string& what) { throw Error(st, ctx + ": shm_path '" + name + "': " + what); };
        if (name.size() < 2 || name.size() > 201 || name[0] != '/' || name.find('/', 1) != std::string::npos ||
            name == "/." || name == "/..")
            bad("not a shared-memory name ('/' and 1 to 200 characters without '/')");
        if (name.find('\0') != std::string::npos) bad("holds a NUL character");
        const std::string path = std::string(kShmDir) + name;
        // O_NOFOLLOW: a symbolic link planted under the name is refused, never followed.
        fd_ = ::open(path.c_str(), O_RDWR | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
        if (fd_ < 0) {
            int e = errno;
            if (e == ELOOP) bad("is a symbolic link");
            if (e == ENOENT) bad("no such shared-memory object");
            bad(std::string("cannot open: ") + std::strerror(e));
        }
        struct stat s {};
        if (::fstat(fd_, &s) != 0) bad(std::string("fstat: ") + std::strerror(errno));
        if (!S_ISREG(s.st_mode)) bad("not a shared-memory object (not a regular file)");
        if (s.st_uid != ::geteuid())
            bad("owned by uid " + std::to_string(s.st_uid) + ", not by this runtime's uid " +
                std::to_string(::geteuid()));
        if ((s.st_mode & 077) != 0) bad("must have mode 0600 (no group or other access)");
        if (uint64_t(s.st_size) != bytes)
            bad("holds " + std::to_string(s.st_size) + " bytes, but the request declares size " +
                std::to_string(bytes));
        if (bytes == 0) return;
        void* p = ::mmap(nullptr, bytes, writable ? PROT_READ | PROT_WRITE : PROT_READ, MAP_SHARED, fd_, 0);
        if (p == MAP_FAILED) bad(std::string("mmap: ") + std::strerror(errno));
        data_ = static_cast<uint8_t*>(p);
        bytes_ = bytes;
    }
    ~ShmObject() {
        if (data_) ::munmap(data_, bytes_);
        if (fd_ >= 0) ::close(fd_);
    }
    ShmObject(const ShmObject&) = delete;
    ShmObject& operator=(const ShmObject&) = delete;
    uint8_t* data() const { return data_; }

private:
    int fd_ = -1;
    uint8_t* data_ = nullptr;
    uint64_t bytes_ = 0;
};

// The three sections of a seed program, in the order of its sources on the wire.
struct Section {
    const char* name;         // kernel name, and the prefix of its *_source_len field
    const char* param_field;  // "rp", "cp", "wp"
    const char* count_field;  // "n_reader_params", …
    protocol::KernelKind kind;
};
// The reader on RISCV_0 / NoC 0 and the writer on RISCV_1 / NoC 1 (the seed's writers open
// Noc noc(1)); docs/protocol.md, "The seed dialect".
constexpr std::array<Section, 3> kSections = {{
    {"reader", "rp", "n_reader_params", protocol::KernelKind::data_movement_0},
    {"compute", "cp", "n_compute_params", protocol::KernelKind::compute},
    {"writer", "wp", "n_writer_params", protocol::KernelKind::data_movement_1},
}};

class SeedServer {
public:
    SeedServer(Target& target, const ServerOptions& options, InputStream& in, int out_fd)
        : target_(&target), options_(options), in_(in), out_fd_(out_fd), dev_(target.device()) {}
    // A session whose target could not be started: every request is answered with `reason`,
    // except exit (compile_program after its sources are consumed), as serve_unavailable does in
    // our dialect.
    SeedServer(const Error& reason, const ServerOptions& options, InputStream& in, int out_fd)
        : target_(nullptr), options_(options), in_(in), out_fd_(out_fd), unavailable_(reason) {}

    // Frees what the session left behind (as exit does in our dialect).
    ~SeedServer() {
        if (!target_) return;
        try {
            for (auto& [id, p] : programs_) free_instances(p);
            for (auto& [index, b] : buffers_) target_->buffer_free(b.target.handle);
        } catch (const Error& e) { ZYX_LOG(runtime) << "seed dialect: freeing at the end: " << e.what(); }
    }

    // With `once`, only the first request is answered; then it returns 1.
    int serve(const std::string& init_line, bool once = false) {
        bool first = true;
        std::string line;
        while (!exiting_) {
            if (first) {
                line = init_line;
                first = false;
            } else {
                auto st = in_.read_line(line, protocol::kMaxLineBytes);
                if (st == InputStream::LineStatus::eof) {
                    ZYX_LOG(runtime) << "seed dialect: end of input; exiting";
                    return 0;
                }
                if (st == InputStream::LineStatus::too_long) {
                    uint64_t n = in_.discard_until_idle(options_.raw_timeout_ms);
                    if (!reply(error_reply(Error(ErrorStatus::Protocol,
                                                 "request line longer than " + std::to_string(protocol::kMaxLineBytes) +
                                                     " bytes; skipped" + idle_note(n)))))
                        return 0;
                    continue;
                }
                if (line.empty()) continue;
            }
            std::string out;
            try {
                out = handle(line);
            } catch (const Error& e) {
                ZYX_LOG(runtime) << "seed dialect: " << e.what();
                out = error_reply(e);
            } catch (const std::exception& e) {
                out = error_reply(Error(ErrorStatus::Internal, std::string("internal error: ") + e.what()));
            }
            if (!reply(out)) {
                ZYX_LOG(runtime) << "client closed the response pipe; exiting";
                return 0;
            }
            if (once && !exiting_) return 1;
        }
        return 0;
    }

private:
    struct Buffer {
        TargetBuffer target;
        uint64_t bytes = 0;
    };
    struct Program {
        protocol::Program desc;
        uint32_t n_params = 0;
        std::vector<std::vector<uint32_t>> params;  // per kernel of desc.kernels: param ordinals, head order
        std::map<std::pair<uint32_t, uint32_t>, TargetProgram> instances;  // (rows, cols) → instance
    };

    bool reply(const std::string& line) { return write_all(out_fd_, line + "\n"); }

    std::string idle_note(uint64_t discarded) const {
        return "; the input after it was discarded until it was idle for " + std::to_string(options_.raw_timeout_ms) +
            " ms (" + std::to_string(discarded) + " bytes), since compile_program sources may have followed";
    }

    std::string handle(const std::string& line) {
        json j;
        try {
            j = protocol::parse_request_json(line);
        } catch (const Error& e) {
            // Not readable: whether raw sources follow cannot be known.
            uint64_t n = in_.discard_until_idle(options_.raw_timeout_ms);
            throw Error(e.status(), e.message() + idle_note(n));
        }
        if (!j.is_object()) throw Error(ErrorStatus::Protocol, "a request must be a JSON object");
        auto c = j.find("cmd");
        if (c == j.end() || !c->is_string()) throw Error(ErrorStatus::Protocol, "request without a string 'cmd'");
        const std::string cmd = c->get<std::string>();
        if (unavailable_) {
            if (cmd == "compile_program") read_sources(j);
            if (cmd == "exit") {
                exiting_ = true;
                return ok_reply();
            }
            throw *unavailable_;
        }
        if (cmd == "compile_program") return compile_program(j);  // reads its sources first
        if (cmd == "init") return init(j);
        if (cmd == "grid") return grid(j);
        if (cmd == "alloc_buf") return alloc_buf(j);
        if (cmd == "free_buf") return free_buf(j);
        if (cmd == "write_buf" || cmd == "read_buf") return transfer(j, cmd == "write_buf");
        if (cmd == "run") return run(j);
        if (cmd == "exit") {
            Fields(j, cmd, ErrorStatus::Protocol).no_others();
            exiting_ = true;
            return ok_reply();
        }
        throw Error(ErrorStatus::Protocol,
                    "unknown command '" + seed_text(cmd) +
                        "' (the seed dialect has init, grid, alloc_buf, free_buf, write_buf, "
                        "read_buf, compile_program, run, exit)");
    }

    std::string init(const json& j) {
        Fields f(j, "init", ErrorStatus::Protocol);
        // The runtime's kernel cache is its own (ZYX_CACHE_DIR, docs/env.md); the seed's directory
        // is only recorded in the log.
        std::string cache_dir = f.str("cache_dir");
        f.no_others();
        if (initialized_) throw Error(ErrorStatus::Protocol, "init: the session is already initialized");
        initialized_ = true;
        ZYX_LOG(runtime) << "seed dialect: init (client cache_dir '" << cache_dir << "'), target " << target_->name();
        return ok_reply();
    }

    std::string grid(const json& j) {
        Fields(j, "grid", ErrorStatus::Protocol).no_others();
        return ok_reply({{"rows", dev_.grid.rows}, {"cols", dev_.grid.cols}});
    }

    std::string alloc_buf(const json& j) {
        Fields f(j, "alloc_buf", ErrorStatus::MemoryAllocation);
        uint64_t size = f.u64("size", UINT64_MAX);
        const uint64_t tile_bytes = f.u64("tile_bytes", UINT64_MAX);
        f.no_others();
        if (size == 0) throw Error(ErrorStatus::MemoryAllocation, "alloc_buf: a buffer of 0 bytes cannot be allocated");
        if (size > dev_.dram_bytes)
            throw Error(ErrorStatus::MemoryAllocation,
                        "alloc_buf: size " + std::to_string(size) + " exceeds the device's " +
                            std::to_string(dev_.dram_bytes) + " bytes of DRAM");
        // A tile must fit a core's L1. The buffer's page is kSeedPageBytes whatever the tile size:
        // the seed's kernels address DRAM in pages of that size.
        if (tile_bytes == 0 || tile_bytes > dev_.l1_bytes)
            throw Error(ErrorStatus::InvalidArgument,
                        "alloc_buf: tile_bytes " + std::to_string(tile_bytes) + " must be between 1 and l1_bytes " +
                            std::to_string(dev_.l1_bytes));
        const uint32_t page = kSeedPageBytes;
        while (next_index_ == 0 || buffers_.count(next_index_)) ++next_index_;
        TargetBuffer tb = target_->buffer_alloc(size, page);
        const uint32_t index = next_index_++;
        buffers_[index] = Buffer{tb, size};
        ZYX_LOG(runtime) << "seed alloc_buf " << index << ": " << size << " bytes, page " << page << ", address "
                         << tb.address;
        return ok_reply({{"index", index}});
    }

    Buffer& buffer(uint32_t index, ErrorStatus st, const std::string& ctx) {
        auto it = buffers_.find(index);
        if (it == buffers_.end()) throw Error(st, ctx + ": unknown buffer index " + std::to_string(index));
        return it->second;
    }

    std::string free_buf(const json& j) {
        Fields f(j, "free_buf", ErrorStatus::MemoryDeallocation);
        uint32_t index = f.u32("index");
        f.no_others();
        Buffer& b = buffer(index, ErrorStatus::MemoryDeallocation, "free_buf");
        target_->buffer_free(b.target.handle);
        buffers_.erase(index);
        return ok_reply();
    }

    std::string transfer(const json& j, bool write) {
        const std::string ctx = write ? "write_buf" : "read_buf";
        const ErrorStatus st = write ? ErrorStatus::MemoryCopyH2P : ErrorStatus::MemoryCopyP2H;
        Fields f(j, ctx, st);
        uint32_t index = f.u32("index");
        std::string path = f.str("shm_path");
        uint64_t size = f.u64("size", UINT64_MAX);
        f.no_others();
        Buffer& b = buffer(index, st, ctx);
        if (size > b.bytes)
            throw Error(st,
                        ctx + ": size " + std::to_string(size) + " exceeds buffer index " + std::to_string(index) +
                            " of " + std::to_string(b.bytes) + " bytes");
        ShmObject shm(ctx, path, size, /*writable=*/!write, st);
        auto it = options_.delay_ms.find(write ? protocol::Command::write_buf : protocol::Command::read_buf);
        if (it != options_.delay_ms.end() && it->second > 0)  // test hook (--debug-delay)
            std::this_thread::sleep_for(std::chrono::milliseconds(it->second));
        if (size > 0) {
            if (write)
                target_->buffer_write(b.target.handle, shm.data(), size, 0);
            else
                target_->buffer_read(b.target.handle, shm.data(), size, 0);
        }
        return ok_reply();
    }

    // Reads the three raw sources that follow a compile_program line, by the lengths it declares;
    // throws Protocol when they cannot be read (then the input is discarded until idle) or do
    // not all arrive.
    std::array<std::string, 3> read_sources(const json& j) {
        std::array<uint64_t, 3> len{};
        for (size_t s = 0; s < 3; ++s) {
            const std::string key = std::string(kSections[s].name) + "_source_len";
            auto it = j.find(key);
            if (it == j.end() || !it->is_number_unsigned() || it->get<uint64_t>() > protocol::kMaxSourceBytes) {
                uint64_t n = in_.discard_until_idle(options_.raw_timeout_ms);
                throw Error(ErrorStatus::Protocol,
                            "compile_program: field '" + key + "' must be an unsigned integer up to " +
                                std::to_string(protocol::kMaxSourceBytes) + "; the source lengths are unknown" +
                                idle_note(n));
            }
            len[s] = it->get<uint64_t>();
        }
        std::array<std::string, 3> src;
        for (size_t s = 0; s < 3; ++s) {
            src[s].reserve(size_t(len[s]));
            size_t got = in_.read_exact(src[s], len[s], options_.raw_timeout_ms);
            if (got < len[s])
                throw Error(ErrorStatus::Protocol,
                            "compile_program: " + std::string(kSections[s].name) + "_source_len declares " +
                                std::to_string(len[s]) + " bytes but only " + std::to_string(got) +
                                " arrived before the input ended or went idle for " +
                                std::to_string(options_.raw_timeout_ms) + " ms");
        }
        return src;
    }

    std::string compile_program(const json& j) {
        std::array<std::string, 3> src = read_sources(j);  // first: the stream stays in step
        Fields f(j, "compile_program", ErrorStatus::InvalidArgument);
        for (const Section& s : kSections) f.u64(std::string(s.name) + "_source_len", protocol::kMaxSourceBytes);
        const uint32_t id = f.u32("id");
        const std::string ctx = "compile_program " + std::to_string(id);
        const uint32_t n_params = f.u32("n_params", kMaxParams);
        const uint32_t n_cbs = f.u32("n_cbs", protocol::kMaxCircularBuffers);
        const uint32_t dest_acc = f.u32("fp32_dest_acc", 1);

        Program prog;
        prog.n_params = n_params;
        prog.desc.grid = {1, 1};  // built once on one core; each launch grid gets its own instance
        prog.desc.fp32_dest_acc = dest_acc != 0;
        for (size_t s = 0; s < 3; ++s) {
            const Section& sec = kSections[s];
            const uint32_t n = f.u32(sec.count_field, n_params);
            std::vector<uint32_t> params;
            for (uint32_t i = 0; i < n; ++i) {
                const std::string key = sec.param_field + std::to_string(i);
                uint32_t p = f.u32(key);
                if (p >= n_params)
                    throw Error(ErrorStatus::InvalidArgument,
                                ctx + ": " + key + " = " + std::to_string(p) + " is not a param ordinal (n_params " +
                                    std::to_string(n_params) + ")");
                if (!params.empty() && p <= params.back())
                    throw Error(ErrorStatus::InvalidArgument,
                                ctx + ": " + key + " = " + std::to_string(p) + " does not follow " + sec.param_field +
                                    std::to_string(i - 1) + " = " + std::to_string(params.back()) +
                                    " (a section's params are listed once each, in ascending head order)");
                params.push_back(p);
            }
            if (src[s].empty()) {
                if (n != 0)
                    throw Error(ErrorStatus::InvalidArgument,
                                ctx + ": the " + std::string(sec.name) + " has params but no source");
                continue;  // an empty source: the program has no such kernel
            }
            protocol::Kernel k;
            k.name = sec.name;
            k.kind = sec.kind;
            k.source = std::move(src[s]);
            // A data-movement kernel reaches its buffers through TensorAccessorArgs<2 * i>(): one
            // pair of compile-time args per param of its section, each describing an interleaved
            // DRAM buffer of kSeedPageBytes pages as tt-metal's host-side TensorAccessorArgs(buffer)
            // does (the same for every buffer, so whichever params are buffers).
            if (sec.kind != protocol::KernelKind::compute)
                for (size_t i = 0; i < params.size(); ++i)
                    k.compile_args.insert(k.compile_args.end(), {kAccessorIsDram, page_aligned()});
            prog.desc.kernels.push_back(std::move(k));
            prog.params.push_back(std::move(params));
        }
        if (prog.desc.kernels.empty()) throw Error(ErrorStatus::InvalidArgument, ctx + ": all three sources are empty");

        // Circular buffers: every one lives in each core's L1 at once (docs/protocol.md,
        // compile_program); sizes in 64 bits.
        uint64_t cb_total = 0;
        for (uint32_t i = 0; i < n_cbs; ++i) {
            const std::string n = std::to_string(i);
            protocol::CircularBuffer cb;
            cb.index = f.u32("cb_idx" + n);
            const uint32_t fmt = f.u32("cb_fmt" + n);
            cb.page_bytes = f.u32("cb_tb" + n);
            cb.num_pages = f.u32("cb_nt" + n);
            const std::string what = ctx + ": CB " + std::to_string(cb.index) + " (cb_idx" + n + ")";
            if (cb.index >= dev_.num_cbs)
                throw Error(ErrorStatus::InvalidArgument,
                            what + " is beyond the device's " + std::to_string(dev_.num_cbs) + " circular buffers");
            for (const protocol::CircularBuffer& other : prog.desc.cbs)
                if (other.index == cb.index) throw Error(ErrorStatus::InvalidArgument, what + " is listed twice");
            const auto df = protocol::DataFormat(uint8_t(fmt));
            if (fmt > 0xff ||
                std::find(dev_.data_formats.begin(), dev_.data_formats.end(), df) == dev_.data_formats.end())
                throw Error(
                    ErrorStatus::InvalidArgument,
                    what + ": cb_fmt " + std::to_string(fmt) + " is not a tt::DataFormat code this device computes in");
            cb.format = df;
            if (cb.num_pages == 0) throw Error(ErrorStatus::InvalidArgument, what + ": cb_nt must be above 0");
            // One page is one tile of the CB's format; another size means the format code is not
            // the tt::DataFormat the client meant.
            if (cb.page_bytes != tile_size_bytes(df))
                throw Error(ErrorStatus::InvalidArgument,
                            what + ": cb_tb " + std::to_string(cb.page_bytes) + " is not the tile size " +
                                std::to_string(tile_size_bytes(df)) + " of cb_fmt " + std::to_string(fmt) + " (" +
                                std::string(data_format_name(df)) + ")");
            const uint64_t bytes = uint64_t(cb.page_bytes) * cb.num_pages;
            if (bytes > dev_.l1_bytes)
                throw Error(ErrorStatus::InvalidArgument,
                            what + ": " + std::to_string(bytes) + " bytes exceed l1_bytes " +
                                std::to_string(dev_.l1_bytes) + " (a core's L1)");
            cb_total += bytes;
            prog.desc.cbs.push_back(cb);
        }
        if (cb_total > dev_.l1_bytes)
            throw Error(ErrorStatus::InvalidArgument,
                        ctx + ": the circular buffers need " + std::to_string(cb_total) +
                            " bytes together, more than l1_bytes " + std::to_string(dev_.l1_bytes));
        f.no_others();

        // The seed reuses the ids of programs it dropped (it has no release command): a known id
        // is replaced. When the new program fails, the old one is dropped too, so that the id
        // never launches a program the client no longer describes.
        auto old = programs_.find(id);
        TargetProgram inst{};
        try {
            inst = target_->program_create(prog.desc, prog.desc.grid, id);
        } catch (const Error&) {
            if (old != programs_.end()) {
                free_instances(old->second);
                programs_.erase(old);
            }
            throw;
        }
        if (old != programs_.end()) {
            free_instances(old->second);
            programs_.erase(old);
        }
        prog.instances[{1, 1}] = inst;
        programs_.emplace(id, std::move(prog));
        return ok_reply();
    }

    uint32_t page_aligned() const {
        const uint32_t a = dev_.dram_alignment ? dev_.dram_alignment : 1;
        return (kSeedPageBytes + a - 1) / a * a;
    }

    void free_instances(Program& p) {
        for (auto& [g, inst] : p.instances) target_->program_free(inst);
        p.instances.clear();
    }

    // Indexed fields name, name0, name1, … until the first one missing.
    static uint32_t count_indexed(const json& j, const std::string& name) {
        uint32_t n = 0;
        while (n < protocol::kMaxLaunchBuffers && j.contains(name + std::to_string(n))) ++n;
        return n;
    }

    std::string run(const json& j) {
        Fields f(j, "run", ErrorStatus::KernelLaunch);
        const uint32_t id = f.u32("id");
        const std::string ctx = "run: program " + std::to_string(id);
        auto pit = programs_.find(id);
        if (pit == programs_.end()) throw Error(ErrorStatus::KernelLaunch, ctx + ": unknown program id");
        Program& prog = pit->second;
        const protocol::Grid g{f.u32("gd0"), f.u32("gd1")};
        if (g.rows == 0 || g.cols == 0 || g.rows > dev_.grid.rows || g.cols > dev_.grid.cols)
            throw Error(ErrorStatus::KernelLaunch,
                        ctx + ": grid gd0 x gd1 = " + grid_str(g) + " must have cores and fit the device grid " +
                            grid_str(dev_.grid));
        const uint32_t n_vars = f.u32("n_vars", prog.n_params);
        const uint32_t n_src = count_indexed(j, "src"), n_dst = count_indexed(j, "dst");
        if (uint64_t(n_src) + n_dst + n_vars != prog.n_params)
            throw Error(ErrorStatus::KernelLaunch,
                        ctx + " has " + std::to_string(prog.n_params) + " params, but " + std::to_string(n_src) +
                            " src + " + std::to_string(n_dst) + " dst + " + std::to_string(n_vars) +
                            " vars were given");
        // Params in head order: Global and Variable interleaved, then the GlobalMut (dst) tail.
        const uint32_t tail = prog.n_params - n_dst;
        std::vector<uint32_t> value(prog.n_params);
        std::vector<bool> is_var(prog.n_params, false);
        for (uint32_t i = 0; i < n_vars; ++i) {
            const std::string n = std::to_string(i);
            uint32_t ord = f.u32("vord" + n);
            if (ord >= tail)
                throw Error(ErrorStatus::KernelLaunch,
                            ctx + ": vord" + n + " = " + std::to_string(ord) + " is not an ordinal before the " +
                                std::to_string(n_dst) + " dst params (" + std::to_string(tail) + ")");
            if (is_var[ord])
                throw Error(ErrorStatus::KernelLaunch, ctx + ": vord" + n + " = " + std::to_string(ord) + " twice");
            is_var[ord] = true;
            value[ord] = f.u32("vval" + n);
        }
        auto address = [&](const std::string& key) {
            uint32_t index = f.u32(key);
            return buffer(index, ErrorStatus::KernelLaunch, ctx + ": " + key).target.address;
        };
        uint32_t next_src = 0;
        for (uint32_t o = 0; o < tail; ++o)
            if (!is_var[o]) value[o] = address("src" + std::to_string(next_src++));
        for (uint32_t i = 0; i < n_dst; ++i) value[tail + i] = address("dst" + std::to_string(i));
        f.no_others();

        // Each section's words on core (gidx0 = row y, gidx1 = col x): its params, then y, x.
        const uint32_t cores = g.rows * g.cols;
        LaunchArgs args(prog.desc.kernels.size());
        for (size_t k = 0; k < args.size(); ++k) {
            args[k].resize(cores);
            for (uint32_t y = 0; y < g.rows; ++y)
                for (uint32_t x = 0; x < g.cols; ++x) {
                    std::vector<uint32_t>& w = args[k][y * g.cols + x];
                    for (uint32_t p : prog.params[k]) w.push_back(value[p]);
                    w.push_back(y);
                    w.push_back(x);
                }
        }
        const std::string where = ctx + " on grid " + grid_str(g) + ": ";
        auto key = std::make_pair(g.rows, g.cols);
        auto inst = prog.instances.find(key);
        try {
            if (inst == prog.instances.end())
                inst = prog.instances.emplace(key, target_->program_create(prog.desc, g, id)).first;
            target_->program_run(inst->second, args);
        } catch (const Error& e) { throw Error(e.status(), where + e.message()); }
        return ok_reply();
    }

    Target* target_;  // null when unavailable_
    const ServerOptions& options_;
    InputStream& in_;
    int out_fd_;
    const protocol::DeviceDesc dev_;
    const std::optional<Error> unavailable_;
    bool initialized_ = false;
    bool exiting_ = false;
    std::unordered_map<uint32_t, Buffer> buffers_;
    uint32_t next_index_ = 1;
    std::unordered_map<uint32_t, Program> programs_;
};

}  // namespace

bool is_init(std::string_view line) {
    try {
        json j = protocol::parse_request_json(line);
        auto c = j.is_object() ? j.find("cmd") : j.end();
        return j.is_object() && c != j.end() && c->is_string() && c->get<std::string>() == "init";
    } catch (const Error&) { return false; }
}

std::string error_reply(const Error& e) {
    ojson j;
    j["status"] = "error";
    j["msg"] = seed_text(std::string(error_status_name(e.status())) + ": " + e.message());
    return dump(j);
}

int serve(Target& target, const ServerOptions& options, InputStream& in, int out_fd, const std::string& init_line) {
    ZYX_LOG(runtime) << "the first request is the seed's init: serving the seed dialect";
    SeedServer s(target, options, in, out_fd);
    return s.serve(init_line);
}

int serve_unavailable(InputStream& in, int out_fd, const Error& reason, int raw_timeout_ms,
                      const std::string& init_line, bool once) {
    ServerOptions options;
    options.raw_timeout_ms = raw_timeout_ms;
    SeedServer s(reason, options, in, out_fd);
    return s.serve(init_line, once);
}

}  // namespace zyx::tt::runtime::seed
