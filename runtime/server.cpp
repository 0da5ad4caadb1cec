#include "server.hpp"

#include <unistd.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "core/log.hpp"
#include "jit/jit.hpp"
#include "seed_dialect.hpp"

namespace zyx::tt::runtime {

using json = nlohmann::json;
using protocol::Command;

namespace {

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string grid_str(protocol::Grid g) { return std::to_string(g.rows) + "x" + std::to_string(g.cols); }

// Ceil division for page counts.
uint64_t pages_of(uint64_t bytes, uint32_t page) { return page ? (bytes + page - 1) / page : 0; }

}  // namespace

Server::Server(Target& target, ServerOptions options) : target_(target), options_(std::move(options)) {}

void Server::delay(Command c) {
    auto it = options_.delay_ms.find(c);
    if (it != options_.delay_ms.end() && it->second > 0) {
        ZYX_LOG(runtime) << "debug delay of " << it->second << " ms in " << protocol::command_name(c);
        std::this_thread::sleep_for(std::chrono::milliseconds(it->second));
    }
}

namespace {

std::string idle_note(uint64_t discarded, int raw_timeout_ms) {
    return "; the input after it was discarded until it was idle for " + std::to_string(raw_timeout_ms) + " ms (" +
        std::to_string(discarded) + " bytes), since compile_program sources may have followed";
}

// Reads the raw source bytes that follow a compile_program line into r.program.kernels, then
// the '\n' that ends them.
void read_sources(InputStream& in, protocol::Request& r, int raw_timeout_ms) {
    for (size_t i = 0; i < r.program.kernels.size(); ++i) {
        protocol::Kernel& k = r.program.kernels[i];
        uint64_t want = r.source_bytes[i];
        k.source.reserve(size_t(want));
        size_t got = in.read_exact(k.source, want, raw_timeout_ms);
        if (got < want)
            throw Error(ErrorStatus::Protocol,
                        "compile_program: kernel '" + k.name + "' declared " + std::to_string(want) +
                            " source bytes but only " + std::to_string(got) +
                            " arrived before the input ended or went idle for " + std::to_string(raw_timeout_ms) +
                            " ms");
    }
    if (in.read_byte(raw_timeout_ms) != '\n') {
        uint64_t n = in.discard_until_idle(raw_timeout_ms);
        throw Error(
            ErrorStatus::Protocol,
            "compile_program: the kernel sources are not followed by '\\n'; the declared source_bytes do not match the bytes sent" +
                idle_note(n, raw_timeout_ms));
    }
}

// The total of the source lengths a refused compile_program declares, when they can be read:
// "kernels" is an array of at most kMaxKernels objects whose "source_bytes" are unsigned and
// within kMaxSourceBytes.
std::optional<uint64_t> declared_source_total(const json& j) {
    auto ks = j.find("kernels");
    if (ks == j.end() || !ks->is_array() || ks->size() > protocol::kMaxKernels) return std::nullopt;
    uint64_t total = 0;
    for (const json& k : *ks) {
        if (!k.is_object()) return std::nullopt;
        auto n = k.find("source_bytes");
        if (n == k.end() || !n->is_number_unsigned() || n->get<uint64_t>() > protocol::kMaxSourceBytes)
            return std::nullopt;
        total += n->get<uint64_t>();
    }
    return total;
}

FramedRequest framing_error(const Error& e, std::optional<uint64_t> seq) {
    FramedRequest f;
    f.kind = FramedRequest::Kind::error;
    f.error = e;
    f.seq = seq;
    return f;
}

}  // namespace

std::optional<FramedRequest> read_request_line(InputStream& in, std::string& line, int raw_timeout_ms) {
    for (;;) {
        auto st = in.read_line(line, protocol::kMaxLineBytes);
        if (st == InputStream::LineStatus::eof) return FramedRequest{};
        if (st == InputStream::LineStatus::too_long) {
            uint64_t n = in.discard_until_idle(raw_timeout_ms);
            return framing_error(Error(ErrorStatus::Protocol,
                                       "request line longer than " + std::to_string(protocol::kMaxLineBytes) +
                                           " bytes; skipped" + idle_note(n, raw_timeout_ms)),
                                 std::nullopt);
        }
        if (!line.empty()) return std::nullopt;  // blank lines are allowed between requests
    }
}

FramedRequest read_request(InputStream& in, int raw_timeout_ms) {
    std::string line;
    if (auto f = read_request_line(in, line, raw_timeout_ms)) return std::move(*f);
    return frame_request(in, line, raw_timeout_ms);
}

FramedRequest frame_request(InputStream& in, const std::string& line, int raw_timeout_ms) {
    json j;
    try {
        j = protocol::parse_request_json(line);
    } catch (const Error& e) {
        // Not readable: whether raw bytes follow cannot be known.
        uint64_t n = in.discard_until_idle(raw_timeout_ms);
        return framing_error(Error(e.status(), e.message() + idle_note(n, raw_timeout_ms)), std::nullopt);
    }
    std::optional<uint64_t> seq;
    if (j.is_object()) {
        if (auto it = j.find("seq"); it != j.end() && it->is_number_unsigned()) seq = it->get<uint64_t>();
    }
    const bool is_compile = j.is_object() && j.contains("cmd") && j["cmd"] == "compile_program";
    FramedRequest f;
    try {
        f.request = protocol::request_from_json(j);
    } catch (const Error& e) {
        std::string note;
        if (is_compile) {
            // Skip the raw bytes that belong to this refused request.
            std::string sink;
            auto total = declared_source_total(j);
            if (!total || in.read_exact(sink, *total, raw_timeout_ms) != *total || in.read_byte(raw_timeout_ms) != '\n')
                note = idle_note(in.discard_until_idle(raw_timeout_ms), raw_timeout_ms);
        }
        return framing_error(Error(e.status(), e.message() + note), seq);
    }
    if (f.request.cmd == Command::compile_program) {
        try {
            read_sources(in, f.request, raw_timeout_ms);
        } catch (const Error& e) { return framing_error(e, seq); }
    }
    f.kind = FramedRequest::Kind::request;
    return f;
}

int serve_unavailable(int in_fd, int out_fd, const Error& reason, int raw_timeout_ms, bool once) {
    InputStream in(in_fd);
    for (bool first = true; !(once && !first); first = false) {
        FramedRequest f;
        std::string line;
        if (!first) {
            f = read_request(in, raw_timeout_ms);
        } else if (auto early = read_request_line(in, line, raw_timeout_ms)) {
            f = std::move(*early);
        } else if (seed::is_init(line)) {  // the seed's dialect (docs/protocol.md "The seed dialect")
            return seed::serve_unavailable(in, out_fd, reason, raw_timeout_ms, line, once);
        } else {
            f = frame_request(in, line, raw_timeout_ms);
        }
        if (f.kind == FramedRequest::Kind::end_of_input) return 0;  // as a working runtime (docs/protocol.md §1)
        bool exit_cmd = f.kind == FramedRequest::Kind::request && f.request.cmd == Command::exit;
        std::optional<uint64_t> seq = f.kind == FramedRequest::Kind::request ? f.request.seq : f.seq;
        json j =
            exit_cmd ? protocol::response_ok(seq) : protocol::response_error(seq, reason.status(), reason.message());
        if (!write_all(out_fd, dump(j) + "\n") || exit_cmd) return 0;  // exit, or the client closed our stdout
    }
    return 1;  // answered the one request with the reason
}

int Server::serve(int in_fd, int out_fd) {
    InputStream in(in_fd);
    for (bool first = true; !exiting_; first = false) {
        FramedRequest f;
        std::string line;
        if (!first) {
            f = read_request(in, options_.raw_timeout_ms);
        } else if (auto early = read_request_line(in, line, options_.raw_timeout_ms)) {
            f = std::move(*early);
        } else if (seed::is_init(line)) {  // the seed's dialect (docs/protocol.md "The seed dialect")
            return seed::serve(target_, options_, in, out_fd, line);
        } else {
            f = frame_request(in, line, options_.raw_timeout_ms);
        }
        if (f.kind == FramedRequest::Kind::end_of_input) {
            ZYX_LOG(runtime) << "end of input; exiting";
            return 0;
        }
        json response;
        if (f.kind == FramedRequest::Kind::error) {
            ++counters_.requests;
            ++counters_.errors;
            ZYX_LOG(runtime) << "bad request: " << f.error->message();
            response = protocol::response_error(f.seq, f.error->status(), f.error->message());
        } else {
            response = handle(f.request);
        }
        std::string out = dump(response);
        out.push_back('\n');
        if (!write_all(out_fd, out)) {
            ZYX_LOG(runtime) << "client closed the response pipe; exiting";
            return 0;
        }
    }
    return 0;
}

json Server::handle(const protocol::Request& r) {
    ++counters_.requests;
    try {
        json j = dispatch(r);
        if (r.seq) j["seq"] = *r.seq;
        return j;
    } catch (const Error& e) {
        ++counters_.errors;
        ZYX_LOG(runtime) << protocol::command_name(r.cmd) << " failed: " << e.what();
        return protocol::response_error(r.seq, e.status(), e.message());
    } catch (const std::exception& e) {
        ++counters_.errors;
        return protocol::response_error(r.seq, ErrorStatus::Internal,
                                        std::string(protocol::command_name(r.cmd)) + ": internal error: " + e.what());
    }
}

json Server::dispatch(const protocol::Request& r) {
    if (!greeted_ && r.cmd != Command::hello && r.cmd != Command::ping && r.cmd != Command::exit)
        throw Error(ErrorStatus::Protocol, std::string(protocol::command_name(r.cmd)) + ": send hello first");
    switch (r.cmd) {
        case Command::hello: return hello(r);
        case Command::ping: return protocol::response_ok(std::nullopt);
        case Command::arena_map: arena_.map(r.arena_name, r.arena_bytes); return protocol::response_ok(std::nullopt);
        case Command::arena_resize: arena_.resize(r.arena_bytes); return protocol::response_ok(std::nullopt);
        case Command::alloc_buf: return alloc_buf(r);
        case Command::free_buf: return free_buf(r);
        case Command::write_buf:
        case Command::read_buf: return transfer(r);
        case Command::copy_buf: return copy_buf(r);
        case Command::compile_program: return compile_program(r);
        case Command::run: return run(r);
        case Command::release_program: return release_program(r);
        case Command::stats: return stats();
        case Command::exit: exiting_ = true; return protocol::response_ok(std::nullopt);
    }
    throw Error(ErrorStatus::Internal, "unhandled command");
}

json Server::hello(const protocol::Request& r) {
    if (r.version != protocol::kVersion)
        throw Error(ErrorStatus::Protocol,
                    "hello: client speaks protocol version " + std::to_string(r.version) +
                        ", this runtime speaks version " + std::to_string(protocol::kVersion));
    greeted_ = true;
    json j = protocol::response_ok(std::nullopt);
    j["version"] = protocol::kVersion;
    j["runtime"] = "zyx-tt-runtime";
    j["pid"] = ::getpid();
    j["target"] = target_.name();
    j["device"] = protocol::device_desc_to_json(target_.device());
    return j;
}

Server::BufferRecord& Server::buffer_for(uint32_t id, ErrorStatus status, std::string_view ctx) {
    auto it = buffers_.find(id);
    if (it == buffers_.end()) throw Error(status, std::string(ctx) + ": unknown buffer " + std::to_string(id));
    return it->second;
}

json Server::alloc_buf(const protocol::Request& r) {
    if (r.bytes == 0) throw Error(ErrorStatus::MemoryAllocation, "alloc_buf: a buffer of 0 bytes cannot be allocated");
    uint32_t page = r.page_bytes ? r.page_bytes : options_.default_page_bytes;
    if (page % 4 != 0)
        throw Error(ErrorStatus::InvalidArgument,
                    "alloc_buf: page_bytes " + std::to_string(page) + " is not a multiple of 4");
    protocol::DeviceDesc dev = target_.device();
    // Kernels move a DRAM page through a core's L1 (noc_async_read/write of one page into a CB),
    // so a page larger than L1 can never be used; refusing it also keeps every page computation
    // of a target far from 32-bit wrap-around.
    if (page > dev.l1_bytes)
        throw Error(ErrorStatus::InvalidArgument,
                    "alloc_buf: page_bytes " + std::to_string(page) + " exceeds l1_bytes " +
                        std::to_string(dev.l1_bytes) + " (a page must fit a core's L1)");
    if (r.bytes > dev.dram_bytes)
        throw Error(ErrorStatus::MemoryAllocation,
                    "alloc_buf: " + std::to_string(r.bytes) + " bytes exceed the device's " +
                        std::to_string(dev.dram_bytes) + " bytes of DRAM");
    TargetBuffer tb = target_.buffer_alloc(r.bytes, page);
    while (next_buffer_ == 0 || buffers_.count(next_buffer_)) ++next_buffer_;
    uint32_t id = next_buffer_++;
    buffers_[id] = BufferRecord{tb, r.bytes, page};
    buffer_bytes_ += r.bytes;
    ZYX_LOG(runtime) << "alloc_buf " << id << ": " << r.bytes << " bytes, page " << page << ", address " << tb.address;
    json j = protocol::response_ok(std::nullopt);
    j["buffer"] = id;
    j["address"] = tb.address;
    j["page_bytes"] = page;
    return j;
}

json Server::free_buf(const protocol::Request& r) {
    BufferRecord& b = buffer_for(r.buffer, ErrorStatus::MemoryDeallocation, "free_buf");
    target_.buffer_free(b.target.handle);
    buffer_bytes_ -= b.bytes;
    buffers_.erase(r.buffer);
    return protocol::response_ok(std::nullopt);
}

json Server::transfer(const protocol::Request& r) {
    const bool write = r.cmd == Command::write_buf;
    const ErrorStatus st = write ? ErrorStatus::MemoryCopyH2P : ErrorStatus::MemoryCopyP2H;
    const std::string ctx(protocol::command_name(r.cmd));
    if (!arena_.mapped()) throw Error(st, ctx + ": no staging arena is mapped (send arena_map first)");
    BufferRecord& b = buffer_for(r.buffer, st, ctx);
    if (r.offset > b.bytes || r.bytes > b.bytes - r.offset)
        throw Error(st,
                    ctx + ": " + std::to_string(r.bytes) + " bytes at offset " + std::to_string(r.offset) +
                        " exceed buffer " + std::to_string(r.buffer) + " of " + std::to_string(b.bytes) + " bytes");
    if (r.arena_offset > arena_.size() || r.bytes > arena_.size() - r.arena_offset)
        throw Error(st,
                    ctx + ": " + std::to_string(r.bytes) + " bytes at arena offset " + std::to_string(r.arena_offset) +
                        " exceed the staging arena of " + std::to_string(arena_.size()) + " bytes");
    delay(r.cmd);
    if (r.bytes > 0) {
        uint8_t* p = arena_.data() + r.arena_offset;
        if (write) {
            target_.buffer_write(b.target.handle, p, r.bytes, r.offset);
            counters_.bytes_written += r.bytes;
        } else {
            target_.buffer_read(b.target.handle, p, r.bytes, r.offset);
            counters_.bytes_read += r.bytes;
        }
    }
    return protocol::response_ok(std::nullopt);
}

json Server::copy_buf(const protocol::Request& r) {
    BufferRecord& src = buffer_for(r.src_buffer, ErrorStatus::MemoryCopyP2H, "copy_buf source");
    BufferRecord& dst = buffer_for(r.buffer, ErrorStatus::MemoryCopyH2P, "copy_buf destination");
    if (r.bytes > src.bytes || r.bytes > dst.bytes)
        throw Error(ErrorStatus::MemoryCopyH2P,
                    "copy_buf: " + std::to_string(r.bytes) + " bytes exceed buffer " +
                        std::to_string(r.bytes > src.bytes ? r.src_buffer : r.buffer));
    // The targets have no device-side copy yet: stage through host memory in bounded pieces.
    constexpr uint64_t kPiece = 4u << 20;
    std::vector<uint8_t> tmp(size_t(std::min(r.bytes, kPiece)));
    for (uint64_t off = 0; off < r.bytes; off += kPiece) {
        uint64_t n = std::min(kPiece, r.bytes - off);
        target_.buffer_read(src.target.handle, tmp.data(), n, off);
        target_.buffer_write(dst.target.handle, tmp.data(), n, off);
    }
    return protocol::response_ok(std::nullopt);
}

json Server::compile_program(const protocol::Request& r) {
    const protocol::Program& p = r.program;
    protocol::DeviceDesc dev = target_.device();
    if (p.grid.rows > dev.grid.rows || p.grid.cols > dev.grid.cols)
        throw Error(ErrorStatus::InvalidArgument,
                    "compile_program: grid " + grid_str(p.grid) + " (rows x cols) exceeds the device grid " +
                        grid_str(dev.grid));
    // Every CB of a program lives in each core's L1 at once. Sizes in 64 bits: page_bytes x
    // num_pages of two u32s wraps in 32 (2^31 x 2 = 0), and no target sees a CB that cannot fit.
    uint64_t cb_total = 0;
    for (const protocol::CircularBuffer& cb : p.cbs) {
        if (cb.index >= dev.num_cbs)
            throw Error(ErrorStatus::InvalidArgument,
                        "compile_program: CB " + std::to_string(cb.index) + " is beyond the device's " +
                            std::to_string(dev.num_cbs) + " circular buffers");
        const uint64_t bytes = uint64_t(cb.page_bytes) * cb.num_pages;
        if (bytes > dev.l1_bytes)
            throw Error(ErrorStatus::InvalidArgument,
                        "compile_program: CB " + std::to_string(cb.index) + ": " + std::to_string(cb.page_bytes) +
                            " page bytes x " + std::to_string(cb.num_pages) + " pages = " + std::to_string(bytes) +
                            " bytes exceed l1_bytes " + std::to_string(dev.l1_bytes) + " (a core's L1)");
        cb_total += bytes;
    }
    if (cb_total > dev.l1_bytes)
        throw Error(ErrorStatus::InvalidArgument,
                    "compile_program: the circular buffers need " + std::to_string(cb_total) +
                        " bytes together, more than l1_bytes " + std::to_string(dev.l1_bytes) + " (a core's L1)");
    // Content key: the whole description including sources (request_json omits the sources).
    protocol::Request keyreq;
    keyreq.cmd = Command::compile_program;
    keyreq.program = p;
    std::string material = protocol::request_json(keyreq);
    for (const protocol::Kernel& k : p.kernels) material.append("\n--source--\n").append(k.source);
    std::string key = jit::content_hash(material);

    json j = protocol::response_ok(std::nullopt);
    if (auto it = compiled_by_key_.find(key); it != compiled_by_key_.end()) {
        ProgramRecord& rec = programs_.at(it->second);
        if (rec.refs == UINT32_MAX)
            throw Error(ErrorStatus::InvalidArgument,
                        "compile_program: program " + std::to_string(it->second) + " has too many references");
        ++rec.refs;
        ++counters_.compile_cache_hits;
        j["program"] = it->second;
        j["cached"] = true;
        return j;
    }
    // The id is chosen first so that the target's errors can name it; it is taken on success.
    while (next_program_ == 0 || programs_.count(next_program_)) ++next_program_;
    const uint32_t id = next_program_;
    auto t0 = std::chrono::steady_clock::now();
    TargetProgram inst = target_.program_create(p, p.grid, id);
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ++counters_.compiles;
    ++counters_.instances;
    ++next_program_;
    ProgramRecord rec;
    rec.desc = p;
    rec.key = key;
    rec.instances[{p.grid.rows, p.grid.cols}] = inst;
    programs_.emplace(id, std::move(rec));
    compiled_by_key_[key] = id;
    ZYX_LOG(runtime) << "compile_program " << id << ": " << p.kernels.size() << " kernels on " << grid_str(p.grid)
                     << " in " << ms << " ms";
    j["program"] = id;
    j["cached"] = false;
    j["compile_ms"] = ms;
    return j;
}

json Server::run(const protocol::Request& r) {
    auto it = programs_.find(r.program_id);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, "run: unknown program " + std::to_string(r.program_id));
    ProgramRecord& rec = it->second;
    const protocol::Program& p = rec.desc;
    const std::string ctx = "run: program " + std::to_string(r.program_id);
    auto count_check = [&](size_t got, uint32_t want, const char* what) {
        if (got != want)
            throw Error(ErrorStatus::KernelLaunch,
                        ctx + " takes " + std::to_string(want) + " " + what + ", got " + std::to_string(got));
    };
    count_check(r.inputs.size(), p.num_inputs, "inputs");
    count_check(r.outputs.size(), p.num_outputs, "outputs");
    count_check(r.scalars.size(), p.num_scalars, "scalars");
    std::vector<const BufferRecord*> ins, outs;
    for (size_t i = 0; i < r.inputs.size(); ++i)
        ins.push_back(&buffer_for(r.inputs[i], ErrorStatus::KernelLaunch, ctx + " input " + std::to_string(i)));
    for (size_t i = 0; i < r.outputs.size(); ++i)
        outs.push_back(&buffer_for(r.outputs[i], ErrorStatus::KernelLaunch, ctx + " output " + std::to_string(i)));
    protocol::Grid grid = r.grid ? *r.grid : p.grid;
    protocol::DeviceDesc dev = target_.device();
    if (grid.rows > dev.grid.rows || grid.cols > dev.grid.cols)
        throw Error(ErrorStatus::KernelLaunch,
                    ctx + ": grid " + grid_str(grid) + " (rows x cols) exceeds the device grid " + grid_str(dev.grid));

    // Resolve every kernel's runtime-arg layout for every core of the grid.
    auto u32_of = [&](uint64_t v, const char* what, size_t idx) -> uint32_t {
        if (v > UINT32_MAX)
            throw Error(ErrorStatus::KernelLaunch,
                        ctx + ": " + what + " " + std::to_string(idx) + " = " + std::to_string(v) +
                            " does not fit a 32-bit runtime arg");
        return uint32_t(v);
    };
    const uint32_t cores = grid.rows * grid.cols;
    LaunchArgs args(p.kernels.size());
    for (size_t k = 0; k < p.kernels.size(); ++k) {
        const auto& layout = p.kernels[k].runtime_args;
        args[k].resize(cores);
        for (uint32_t y = 0; y < grid.rows; ++y) {
            for (uint32_t x = 0; x < grid.cols; ++x) {
                std::vector<uint32_t>& words = args[k][y * grid.cols + x];
                words.reserve(layout.size());
                for (const protocol::RuntimeArg& a : layout) {
                    uint32_t v = 0;
                    switch (a.source) {
                        case protocol::ArgSource::literal: v = a.value; break;
                        case protocol::ArgSource::input_address: v = ins[a.value]->target.address; break;
                        case protocol::ArgSource::output_address: v = outs[a.value]->target.address; break;
                        case protocol::ArgSource::input_pages:
                            v = u32_of(pages_of(ins[a.value]->bytes, ins[a.value]->page_bytes), "input pages", a.value);
                            break;
                        case protocol::ArgSource::output_pages:
                            v = u32_of(pages_of(outs[a.value]->bytes, outs[a.value]->page_bytes), "output pages",
                                       a.value);
                            break;
                        case protocol::ArgSource::input_bytes:
                            v = u32_of(ins[a.value]->bytes, "input bytes", a.value);
                            break;
                        case protocol::ArgSource::output_bytes:
                            v = u32_of(outs[a.value]->bytes, "output bytes", a.value);
                            break;
                        case protocol::ArgSource::scalar: v = r.scalars[a.value]; break;
                        case protocol::ArgSource::core_x: v = x; break;
                        case protocol::ArgSource::core_y: v = y; break;
                        case protocol::ArgSource::core_index: v = y * grid.cols + x; break;
                        case protocol::ArgSource::num_cores: v = cores; break;
                        case protocol::ArgSource::grid_rows: v = grid.rows; break;
                        case protocol::ArgSource::grid_cols: v = grid.cols; break;
                    }
                    words.push_back(v);
                }
            }
        }
    }

    // One instance per launch grid; kernel binaries come from the cache, nothing is recompiled.
    bool instantiated = false;
    auto key = std::make_pair(grid.rows, grid.cols);
    auto inst = rec.instances.find(key);
    // The device's errors say what broke (kernel, core, CB); the prefix says which program.
    const std::string where = ctx + " on grid " + grid_str(grid) + ": ";
    try {
        if (inst == rec.instances.end()) {
            inst = rec.instances.emplace(key, target_.program_create(p, grid, r.program_id)).first;
            ++counters_.instances;
            instantiated = true;
        }
        delay(Command::run);
    } catch (const Error& e) { throw Error(e.status(), where + e.message()); }
    auto t0 = std::chrono::steady_clock::now();
    try {
        target_.program_run(inst->second, args);
    } catch (const Error& e) { throw Error(e.status(), where + e.message()); }
    auto us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    ++counters_.launches;
    json j = protocol::response_ok(std::nullopt);
    j["launch_us"] = us;
    j["instantiated"] = instantiated;
    return j;
}

json Server::release_program(const protocol::Request& r) {
    auto it = programs_.find(r.program_id);
    if (it == programs_.end())
        throw Error(ErrorStatus::KernelLaunch, "release_program: unknown program " + std::to_string(r.program_id));
    ProgramRecord& rec = it->second;
    if (--rec.refs == 0) {
        for (auto& [grid, inst] : rec.instances) target_.program_free(inst);
        compiled_by_key_.erase(rec.key);
        programs_.erase(it);
    }
    return protocol::response_ok(std::nullopt);
}

json Server::stats() {
    TargetStats ts = target_.stats();
    json j = protocol::response_ok(std::nullopt);
    j["requests"] = counters_.requests;
    j["errors"] = counters_.errors;
    j["buffers"] = buffers_.size();
    j["buffer_bytes"] = buffer_bytes_;
    j["dram_bytes_allocated"] = ts.dram_bytes_allocated;
    j["programs"] = programs_.size();
    j["program_instances"] = counters_.instances;
    j["compiles"] = counters_.compiles;
    j["compile_cache_hits"] = counters_.compile_cache_hits;
    j["launches"] = counters_.launches;
    j["bytes_written"] = counters_.bytes_written;
    j["bytes_read"] = counters_.bytes_read;
    j["arena_bytes"] = arena_.size();
    return j;
}

}  // namespace zyx::tt::runtime
