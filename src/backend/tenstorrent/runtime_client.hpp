// The client's connection to one zyx-tt-runtime: the process, the handshake, the staging arena,
// request/response with sequence numbers and timeouts, and pipelined bulk transfers.
//
// Thread-safe: every public member takes the connection's mutex, so a pool and a device that
// share one client may be used from different threads.
//
// Crashes: when the runtime dies or times out, the call that saw it throws (RuntimeCrashed or
// Timeout) and the connection is marked down. The next call starts a fresh runtime (a new
// generation()); buffers and programs of the old generation are gone, and the pool and device
// report that for the objects that lived there.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "backend/tenstorrent/protocol.hpp"

namespace zyx::tt {

class RuntimeProcess;
class StagingArena;

struct RuntimeClientOptions {
    std::filesystem::path executable;  // zyx-tt-runtime to start
    std::vector<std::string> args;     // its arguments (--target, --preset, …)
    int request_timeout_ms = 30000;    // small requests and transfers
    int compile_timeout_ms = 600000;   // compile_program: compilers are slow
    int run_timeout_ms = 600000;       // run: a launch can legitimately take long
    uint64_t arena_initial_bytes = 1u << 20;
    uint64_t arena_max_bytes = 64u << 20;      // the arena grows up to this; larger transfers are chunked
    uint64_t transfer_chunk_bytes = 2u << 20;  // one write_buf/read_buf request moves at most this (bench/runtime)
};

class RuntimeClient {
public:
    explicit RuntimeClient(RuntimeClientOptions options);
    ~RuntimeClient();  // sends exit and ends the runtime
    RuntimeClient(const RuntimeClient&) = delete;
    RuntimeClient& operator=(const RuntimeClient&) = delete;

    // Starts the runtime when it is not running (handshake + arena). Throws Initialization,
    // RuntimeCrashed or Timeout, or the runtime's own error (e.g. its target failed to start).
    void start();
    // Increments each time a runtime is started; 0 before the first.
    uint64_t generation() const;
    bool running() const;
    // Facts from hello (starts the runtime if needed).
    protocol::DeviceDesc device();
    std::string target();
    // Pid of the current runtime, or -1.
    long pid() const;

    // Sends one request (not compile_program) and returns the response object. Starts a runtime
    // when none runs. Throws the runtime's error for {"ok":false}.
    nlohmann::json call(protocol::Request r);
    // compile_program with the kernels' sources (taken from program.kernels[i].source).
    nlohmann::json compile(const protocol::Program& program);

    // Bulk transfers through the arena, pipelined in chunks. `generation` must be the
    // generation the buffer was allocated in, else the call throws (MemoryCopyH2P / P2H) without
    // touching the runtime.
    void write(uint64_t generation, uint32_t buffer, const void* src, uint64_t bytes, uint64_t offset = 0);
    void read(uint64_t generation, uint32_t buffer, void* dst, uint64_t bytes, uint64_t offset = 0);
    // The same transfers with the bytes made or used in the arena itself, chunk by chunk (the
    // pool tilizes into and untilizes out of it, so no second host copy is made). `fill(slot,
    // offset, n)` writes buffer bytes [offset, offset + n) into `slot`; `drain(slot, offset, n)`
    // reads them from it. Every chunk but the last is a multiple of `granule` bytes (a tile).
    using ChunkFn = std::function<void(uint8_t* slot, uint64_t offset, uint64_t n)>;
    void write_with(uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t granule, const ChunkFn& fill);
    void read_with(uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t granule, const ChunkFn& drain);

    // Ends the current runtime (exit, then by pid if needed). The next call starts a new one.
    void stop();

private:
    void start_locked();
    void ensure_locked();
    // Marks the runtime down after a crash or timeout (the process object is kept until the
    // next start so its pid stays visible in errors).
    void mark_down();
    nlohmann::json roundtrip_locked(protocol::Request& r, int timeout_ms);
    void send_locked(protocol::Request& r, int timeout_ms);
    nlohmann::json receive_locked(uint64_t seq, std::string_view what, int timeout_ms);
    void arena_reserve_locked(uint64_t bytes);
    void transfer_locked(bool write, uint64_t generation, uint32_t buffer, uint64_t bytes, uint64_t offset,
                         uint64_t granule, const ChunkFn& move);

    RuntimeClientOptions options_;
    mutable std::mutex mutex_;
    std::unique_ptr<RuntimeProcess> process_;
    std::unique_ptr<StagingArena> arena_;
    bool up_ = false;
    uint64_t generation_ = 0;
    uint64_t next_seq_ = 1;
    protocol::DeviceDesc device_;
    std::string target_;
};

}  // namespace zyx::tt
