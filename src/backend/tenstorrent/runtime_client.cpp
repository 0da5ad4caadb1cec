#include "backend/tenstorrent/runtime_client.hpp"

#include <algorithm>
#include <cstring>
#include <deque>

#include "backend/tenstorrent/runtime_process.hpp"
#include "backend/tenstorrent/staging_arena.hpp"
#include "core/error.hpp"
#include "core/log.hpp"

namespace zyx::tt {

using json = nlohmann::json;

RuntimeClient::RuntimeClient(RuntimeClientOptions options) : options_(std::move(options)) {
    options_.transfer_chunk_bytes = std::max<uint64_t>(options_.transfer_chunk_bytes, 4096);
    options_.arena_max_bytes = std::max(options_.arena_max_bytes, options_.transfer_chunk_bytes);
}

RuntimeClient::~RuntimeClient() { stop(); }

uint64_t RuntimeClient::generation() const {
    std::lock_guard lock(mutex_);
    return generation_;
}

bool RuntimeClient::running() const {
    std::lock_guard lock(mutex_);
    return up_;
}

long RuntimeClient::pid() const {
    std::lock_guard lock(mutex_);
    return process_ ? long(process_->pid()) : -1;
}

protocol::DeviceDesc RuntimeClient::device() {
    std::lock_guard lock(mutex_);
    ensure_locked();
    return device_;
}

std::string RuntimeClient::target() {
    std::lock_guard lock(mutex_);
    ensure_locked();
    return target_;
}

void RuntimeClient::start() {
    std::lock_guard lock(mutex_);
    ensure_locked();
}

void RuntimeClient::ensure_locked() {
    if (!up_) start_locked();
}

void RuntimeClient::mark_down() {
    up_ = false;
    arena_.reset();
}

void RuntimeClient::start_locked() {
    process_.reset();  // reaps a previous, dead runtime
    arena_.reset();
    std::vector<std::string> argv{options_.executable.string()};
    argv.insert(argv.end(), options_.args.begin(), options_.args.end());
    process_ = std::make_unique<RuntimeProcess>(argv);
    ++generation_;
    up_ = true;  // provisionally: roundtrip needs a process
    try {
        protocol::Request hello;
        hello.cmd = protocol::Command::hello;
        // The first answer waits for the target to bring its device up (tt-metal's device init
        // takes seconds; an emulator or compat layer under a sanitizer too): not a small request.
        constexpr int kStartFloorMs = 30000;
        json h = roundtrip_locked(hello, std::max(options_.request_timeout_ms, kStartFloorMs));
        if (!h.contains("device") || !h.contains("target") || !h["target"].is_string())
            throw Error(ErrorStatus::Protocol, "hello response lacks 'device' or 'target'");
        device_ = protocol::device_desc_from_json(h["device"]);
        target_ = h["target"].get<std::string>();
        arena_ = std::make_unique<StagingArena>(options_.arena_initial_bytes);
        protocol::Request map;
        map.cmd = protocol::Command::arena_map;
        map.arena_name = arena_->name();
        map.arena_bytes = arena_->size();
        roundtrip_locked(map, options_.request_timeout_ms);
        arena_->unlink_name();  // the runtime holds the object now; nothing stays in /dev/shm
    } catch (const Error& e) {
        mark_down();
        if (process_) process_->kill();
        throw Error(e.status(), "starting zyx-tt-runtime " + options_.executable.string() + ": " + e.message());
    }
    ZYX_LOG(runtime) << "runtime generation " << generation_ << " (pid " << process_->pid() << "): target " << target_
                     << ", device " << device_.name << " grid " << device_.grid.rows << "x" << device_.grid.cols;
}

void RuntimeClient::send_locked(protocol::Request& r, int timeout_ms) {
    r.seq = next_seq_++;
    std::string line = protocol::request_json(r);
    line.push_back('\n');
    try {
        process_->send(line, timeout_ms, protocol::command_name(r.cmd));
    } catch (const Error& e) {
        if (e.status() == ErrorStatus::RuntimeCrashed || e.status() == ErrorStatus::Timeout) mark_down();
        throw;
    }
}

json RuntimeClient::receive_locked(uint64_t seq, std::string_view what, int timeout_ms) {
    std::string line;
    try {
        line = process_->receive_line(timeout_ms, what);
    } catch (const Error& e) {
        if (e.status() == ErrorStatus::RuntimeCrashed || e.status() == ErrorStatus::Timeout) mark_down();
        throw;
    }
    try {
        return protocol::parse_response(line, seq);
    } catch (const Error& e) {
        if (e.status() == ErrorStatus::Protocol) {
            // The stream can no longer be trusted: end this runtime; the next call starts afresh.
            process_->kill();
            mark_down();
        }
        throw;
    }
}

json RuntimeClient::roundtrip_locked(protocol::Request& r, int timeout_ms) {
    send_locked(r, timeout_ms);
    return receive_locked(*r.seq, protocol::command_name(r.cmd), timeout_ms);
}

json RuntimeClient::call(protocol::Request r) {
    if (r.cmd == protocol::Command::compile_program) return compile(r.program);
    std::lock_guard lock(mutex_);
    ensure_locked();
    int timeout = r.cmd == protocol::Command::run ? options_.run_timeout_ms : options_.request_timeout_ms;
    return roundtrip_locked(r, timeout);
}

json RuntimeClient::compile(const protocol::Program& program) {
    std::lock_guard lock(mutex_);
    ensure_locked();
    protocol::Request r;
    r.cmd = protocol::Command::compile_program;
    r.program = program;
    std::string payload;
    for (const protocol::Kernel& k : program.kernels) {
        r.source_bytes.push_back(k.source.size());
        payload += k.source;
    }
    payload.push_back('\n');  // the sources are followed by one '\n'
    r.seq = next_seq_++;
    std::string line = protocol::request_json(r);
    line.push_back('\n');
    try {
        process_->send(line, options_.request_timeout_ms, "compile_program");
        process_->send(payload, options_.request_timeout_ms, "compile_program");
    } catch (const Error& e) {
        if (e.status() == ErrorStatus::RuntimeCrashed || e.status() == ErrorStatus::Timeout) mark_down();
        throw;
    }
    return receive_locked(*r.seq, "compile_program", options_.compile_timeout_ms);
}

void RuntimeClient::arena_reserve_locked(uint64_t bytes) {
    if (bytes <= arena_->size()) return;
    uint64_t want = arena_->size();
    while (want < bytes) want *= 2;
    want = std::min(want, options_.arena_max_bytes);
    if (want <= arena_->size()) return;
    arena_->grow(want);
    protocol::Request r;
    r.cmd = protocol::Command::arena_resize;
    r.arena_bytes = want;
    roundtrip_locked(r, options_.request_timeout_ms);
}

void RuntimeClient::write(uint64_t generation, uint32_t buffer, const void* src, uint64_t bytes, uint64_t offset) {
    std::lock_guard lock(mutex_);
    const uint8_t* host = static_cast<const uint8_t*>(src);
    transfer_locked(true, generation, buffer, bytes, offset, 1,
                    [&](uint8_t* slot, uint64_t off, uint64_t n) { std::memcpy(slot, host + (off - offset), n); });
}

void RuntimeClient::write_with(uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t granule,
                               const ChunkFn& fill) {
    std::lock_guard lock(mutex_);
    transfer_locked(true, generation, buffer, bytes, 0, granule, fill);
}

void RuntimeClient::read_with(uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t granule,
                              const ChunkFn& drain) {
    std::lock_guard lock(mutex_);
    transfer_locked(false, generation, buffer, bytes, 0, granule, drain);
}

void RuntimeClient::read(uint64_t generation, uint32_t buffer, void* dst, uint64_t bytes, uint64_t offset) {
    std::lock_guard lock(mutex_);
    uint8_t* host = static_cast<uint8_t*>(dst);
    transfer_locked(false, generation, buffer, bytes, offset, 1,
                    [&](uint8_t* slot, uint64_t off, uint64_t n) { std::memcpy(host + (off - offset), slot, n); });
}

// A transfer is cut into chunks; the arena is cut into slots of one chunk. Up to `slots`
// requests are in flight, so the runtime copies one chunk while this process copies the next.
// Responses come back in order; every response is read even after an error, so the stream stays
// in step, and the first error is thrown at the end.
void RuntimeClient::transfer_locked(bool write, uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t offset,
                                    uint64_t granule, const ChunkFn& move) {
    const ErrorStatus st = write ? ErrorStatus::MemoryCopyH2P : ErrorStatus::MemoryCopyP2H;
    const char* what = write ? "write_buf" : "read_buf";
    if (!up_ || generation != generation_)
        throw Error(st,
                    std::string(what) + ": runtime buffer " + std::to_string(buffer) +
                        " belonged to runtime generation " + std::to_string(generation) +
                        ", which has ended; its contents are lost");
    if (bytes == 0) return;
    arena_reserve_locked(std::min(bytes, options_.arena_max_bytes));
    uint64_t chunk = std::min({options_.transfer_chunk_bytes, bytes, arena_->size()});
    if (chunk < bytes && granule > 1) chunk = std::max(granule, chunk / granule * granule);
    if (chunk > arena_->size()) arena_reserve_locked(chunk);
    const uint64_t slots = std::max<uint64_t>(1, arena_->size() / chunk);
    const uint64_t nchunks = (bytes + chunk - 1) / chunk;

    struct InFlight {
        uint64_t seq, index;
    };
    std::deque<InFlight> inflight;
    std::optional<Error> first_error;
    auto issue = [&](uint64_t i) {
        uint64_t off = i * chunk, n = std::min(chunk, bytes - off);
        uint8_t* slot = arena_->data() + (i % slots) * chunk;
        if (write) move(slot, offset + off, n);
        protocol::Request r;
        r.cmd = write ? protocol::Command::write_buf : protocol::Command::read_buf;
        r.buffer = buffer;
        r.offset = offset + off;
        r.bytes = n;
        r.arena_offset = (i % slots) * chunk;
        send_locked(r, options_.request_timeout_ms);
        inflight.push_back({*r.seq, i});
    };
    auto complete_oldest = [&] {
        InFlight f = inflight.front();
        inflight.pop_front();
        try {
            receive_locked(f.seq, what, options_.request_timeout_ms);
            if (!write && !first_error) {
                uint64_t off = f.index * chunk, n = std::min(chunk, bytes - off);
                move(arena_->data() + (f.index % slots) * chunk, offset + off, n);
            }
        } catch (const Error& e) {
            if (!up_) throw;  // crash or timeout: nothing more will come
            if (!first_error) first_error = e;
        }
    };
    for (uint64_t i = 0; i < nchunks; ++i) {
        if (inflight.size() == slots) complete_oldest();
        if (first_error) break;
        issue(i);
    }
    while (!inflight.empty()) complete_oldest();
    if (first_error) throw *first_error;
}

void RuntimeClient::stop() {
    std::lock_guard lock(mutex_);
    if (process_ && up_) {
        try {
            protocol::Request r;
            r.cmd = protocol::Command::exit;
            roundtrip_locked(r, 2000);
        } catch (const Error& e) { ZYX_LOG(runtime) << "exit: " << e.what(); }
    }
    if (process_) process_->shutdown(2000);
    process_.reset();
    mark_down();
}

}  // namespace zyx::tt
