// Bad input of every kind, sent to a real zyx-tt-runtime line by line. After each bad request
// the runtime must answer with the right status, keep serving, and keep earlier data intact.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "emu/device.hpp"
#include "runtime_test_util.hpp"

using namespace zyx;
using namespace zyx::tt;
using nlohmann::json;

namespace {

void expect_error(const json& j, const std::string& status, const std::string& fragment) {
    ASSERT_EQ(j.value("ok", true), false) << j.dump();
    EXPECT_EQ(j["error"]["status"], status) << j.dump();
    std::string msg = j["error"]["message"].get<std::string>();
    EXPECT_NE(msg.find(fragment), std::string::npos) << "message '" << msg << "' lacks '" << fragment << "'";
}

std::string kernel_json(const std::string& name, const std::string& kind, size_t bytes) {
    return R"({"name":")" + name + R"(","kind":")" + kind + R"(","source_bytes":)" + std::to_string(bytes) + "}";
}

// A runtime with one 64 KiB buffer holding a known pattern.
class BadInput : public ::testing::Test {
protected:
    void SetUp() override {
        rt = std::make_unique<test::RawRuntime>(std::vector<std::string>{"--raw-timeout-ms", "300"});
        rt->start(1 << 20);
        json a = rt->ok(R"({"cmd":"alloc_buf","bytes":65536})");
        buffer = a["buffer"].get<uint32_t>();
        pattern.resize(65536);
        for (size_t i = 0; i < pattern.size(); ++i) pattern[i] = uint8_t(i * 7 + 3);
        std::memcpy(rt->arena->data(), pattern.data(), pattern.size());
        rt->ok(R"({"cmd":"write_buf","buffer":)" + std::to_string(buffer) + R"(,"bytes":65536,"arena_offset":0})");
    }
    // The runtime still answers, and the buffer still holds the pattern.
    void expect_still_serving() {
        rt->ok(R"({"cmd":"ping"})");
        std::memset(rt->arena->data() + 100000, 0, pattern.size());
        rt->ok(R"({"cmd":"read_buf","buffer":)" + std::to_string(buffer) + R"(,"bytes":65536,"arena_offset":100000})");
        EXPECT_EQ(std::memcmp(rt->arena->data() + 100000, pattern.data(), pattern.size()), 0)
            << "buffer contents changed";
    }
    // The next response answers the next request: nothing the runtime should have skipped was
    // taken for a request of its own.
    void expect_next_response_is_ours() {
        json j = rt->request(R"({"cmd":"ping","seq":7})");
        EXPECT_EQ(j, json::parse(R"({"ok":true,"seq":7})")) << "a skipped line was answered as a request";
    }
    std::unique_ptr<test::RawRuntime> rt;
    uint32_t buffer = 0;
    std::vector<uint8_t> pattern;
};

}  // namespace

TEST_F(BadInput, MalformedJson) {
    expect_error(rt->request(R"({"cmd":"ping")"), "protocol", "malformed JSON");
    expect_error(rt->request("\x01\x02garbage\xff"), "protocol", "malformed JSON");
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":1e999})"), "protocol", "number overflow");
    expect_still_serving();
}

TEST_F(BadInput, UnknownCommand) {
    expect_error(rt->request(R"({"cmd":"reboot","seq":5})"), "protocol", "unknown command 'reboot'");
    expect_still_serving();
}

TEST_F(BadInput, MissingOrIllTypedField) {
    expect_error(rt->request(R"({"cmd":"write_buf","bytes":4})"), "protocol", "missing field 'buffer'");
    expect_error(rt->request(R"({"cmd":"write_buf","buffer":"1","bytes":4})"), "protocol",
                 "must be an unsigned integer");
    expect_error(rt->request(R"({"cmd":"run","program":1,"inputs":"all"})"), "protocol", "must be an array");
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":4,"colour":"red"})"), "protocol", "unknown field 'colour'");
    expect_still_serving();
}

TEST_F(BadInput, DuplicateKeysAreRefused) {
    // Last-wins would make this an exit; the runtime refuses it and keeps serving.
    expect_error(rt->request(R"({"cmd":"ping","cmd":"exit"})"), "protocol", "duplicate key 'cmd'");
    expect_error(rt->request(R"({"cmd":"free_buf","buffer":999,"buffer":)" + std::to_string(buffer) + "}"), "protocol",
                 "duplicate key 'buffer'");
    expect_still_serving();
}

TEST_F(BadInput, ErrorEchoesSeqEvenWhenTheRequestIsBad) {
    json j = rt->request(R"({"cmd":"alloc_buf","seq":41,"bytes":"x"})");
    EXPECT_EQ(j["seq"], 41);
    expect_still_serving();
}

TEST_F(BadInput, UnknownBufferOrProgram) {
    expect_error(rt->request(R"({"cmd":"write_buf","buffer":999,"bytes":4})"), "memory_copy_h2p", "unknown buffer 999");
    expect_error(rt->request(R"({"cmd":"read_buf","buffer":999,"bytes":4})"), "memory_copy_p2h", "unknown buffer 999");
    expect_error(rt->request(R"({"cmd":"free_buf","buffer":999})"), "memory_deallocation", "unknown buffer 999");
    expect_error(rt->request(R"({"cmd":"run","program":77})"), "kernel_launch", "unknown program 77");
    expect_error(rt->request(R"({"cmd":"release_program","program":77})"), "kernel_launch", "unknown program 77");
    expect_still_serving();
}

TEST_F(BadInput, SizeLargerThanArenaOrBuffer) {
    std::string b = std::to_string(buffer);
    expect_error(rt->request(R"({"cmd":"write_buf","buffer":)" + b + R"(,"bytes":65537})"), "memory_copy_h2p",
                 "exceed buffer " + b);
    expect_error(rt->request(R"({"cmd":"read_buf","buffer":)" + b + R"(,"bytes":16,"offset":65530})"),
                 "memory_copy_p2h", "exceed buffer");
    expect_error(rt->request(R"({"cmd":"write_buf","buffer":)" + b + R"(,"bytes":16,"offset":18446744073709551615})"),
                 "memory_copy_h2p", "exceed buffer");
    expect_error(rt->request(R"({"cmd":"write_buf","buffer":)" + b + R"(,"bytes":4096,"arena_offset":1046528})"),
                 "memory_copy_h2p", "exceed the staging arena of 1048576 bytes");
    expect_error(
        rt->request(R"({"cmd":"read_buf","buffer":)" + b + R"(,"bytes":1,"arena_offset":18446744073709551615})"),
        "memory_copy_p2h", "staging arena");
    expect_error(rt->request(R"({"cmd":"arena_resize","bytes":1099511627776})"), "invalid_argument", "fewer than");
    expect_still_serving();
}

TEST_F(BadInput, ZeroSizeAndOversizeAllocation) {
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":0})"), "memory_allocation", "0 bytes");
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":1000000000000000})"), "memory_allocation",
                 "exceed the device's");
    // Fill the device: allocations fail cleanly once DRAM is exhausted, earlier buffers survive.
    json hello = rt->ok(R"({"cmd":"hello","version":1})");
    uint64_t dram = hello["device"]["dram_bytes"].get<uint64_t>();
    std::vector<uint32_t> big;
    json last;
    for (int i = 0; i < 64; ++i) {
        last = rt->request(R"({"cmd":"alloc_buf","bytes":)" + std::to_string(dram / 4) + "}");
        if (!last["ok"].get<bool>()) break;
        big.push_back(last["buffer"].get<uint32_t>());
    }
    EXPECT_LE(big.size(), 4u);
    expect_error(last, "memory_allocation", "");
    for (uint32_t id : big) rt->ok(R"({"cmd":"free_buf","buffer":)" + std::to_string(id) + "}");
    expect_still_serving();
}

// A page must fit a core's L1 (l1_bytes in hello). A page near 2^32 used to wrap the emulator's
// 32-bit page stride to 0, so two buffers got one address and writes to one changed the other.
TEST_F(BadInput, PageLargerThanL1IsRefused) {
    json hello = rt->ok(R"({"cmd":"hello","version":1})");
    const uint64_t l1 = hello["device"]["l1_bytes"].get<uint64_t>();
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":4,"page_bytes":4294967292})"), "invalid_argument",
                 "page_bytes 4294967292 exceeds l1_bytes " + std::to_string(l1));
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":4,"page_bytes":)" + std::to_string(l1 + 4) + "}"),
                 "invalid_argument", "exceeds l1_bytes");
    // A page of exactly l1_bytes is fine, and it does not overlap its neighbour.
    uint32_t big =
        rt->ok(R"({"cmd":"alloc_buf","bytes":4,"page_bytes":)" + std::to_string(l1) + "}")["buffer"].get<uint32_t>();
    uint32_t small = rt->ok(R"({"cmd":"alloc_buf","bytes":4096})")["buffer"].get<uint32_t>();
    std::memset(rt->arena->data(), 0x11, 4096);
    rt->ok(R"({"cmd":"write_buf","buffer":)" + std::to_string(small) + R"(,"bytes":4096})");
    std::memset(rt->arena->data(), 0xAB, 4);
    rt->ok(R"({"cmd":"write_buf","buffer":)" + std::to_string(big) + R"(,"bytes":4})");
    rt->ok(R"({"cmd":"read_buf","buffer":)" + std::to_string(small) + R"(,"bytes":16,"arena_offset":8192})");
    for (int i = 0; i < 16; ++i)
        EXPECT_EQ(rt->arena->data()[8192 + i], 0x11) << "byte " << i << " of the 4 KiB buffer changed";
    rt->ok(R"({"cmd":"free_buf","buffer":)" + std::to_string(big) + "}");
    rt->ok(R"({"cmd":"free_buf","buffer":)" + std::to_string(small) + "}");
    expect_still_serving();
}

// The emulator's own API refuses a page that cannot fit a DRAM bank (its page stride used to be
// computed in 32 bits and wrapped to 0 near 2^32).
TEST(EmulatorApi, PageSizeNear4GiBIsRefused) {
    emu::Device dev(emu::preset("wormhole-n150"));
    try {
        dev.buffer_create(4294967292ull, 4294967292u);
        FAIL() << "a page of 4294967292 bytes was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::InvalidArgument) << e.what();
        EXPECT_NE(e.message().find("page size 4294967292 B does not fit a DRAM bank"), std::string::npos) << e.what();
    }
    emu::Buffer a = dev.buffer_create(4096, 4096), b = dev.buffer_create(4096, 4096);
    EXPECT_NE(a.address, b.address);
}

TEST_F(BadInput, RequestsBeforeHelloAndWrongVersion) {
    test::RawRuntime fresh;
    expect_error(fresh.request(R"({"cmd":"alloc_buf","bytes":4})"), "protocol", "send hello first");
    expect_error(fresh.request(R"({"cmd":"hello","version":99})"), "protocol", "speaks version 1");
    fresh.ok(R"({"cmd":"hello","version":1})");
    fresh.ok(R"({"cmd":"alloc_buf","bytes":4})");
}

TEST_F(BadInput, ArenaThatOthersCouldReadIsRefused) {
    std::string name = "/zyx-test-open-" + std::to_string(::getpid());
    int fd = ::shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::fchmod(fd, 0644), 0);
    ASSERT_EQ(::ftruncate(fd, 4096), 0);
    expect_error(rt->request(R"({"cmd":"arena_map","name":")" + name + R"(","bytes":4096})"), "invalid_argument",
                 "mode 0600");
    expect_error(rt->request(R"({"cmd":"arena_map","name":"/zyx-does-not-exist","bytes":4096})"), "invalid_argument",
                 "cannot open");
    ::shm_unlink(name.c_str());
    ::close(fd);
    expect_still_serving();  // the old arena is still mapped
}

TEST_F(BadInput, LineLongerThanTheLimit) {
    std::string huge = R"({"cmd":"ping","pad":")" + std::string(1100000, 'x') + "\"}";
    expect_error(rt->request(huge), "protocol", "longer than 1048576");
    expect_still_serving();
}

// Raw sources that look like requests, behind a compile_program line the runtime refuses: they
// must never be answered (seq 666) or obeyed (exit).
const std::string kRequestLookingSource = "{\"cmd\":\"ping\",\"seq\":666}\n{\"cmd\":\"exit\"}\n";

TEST_F(BadInput, CompileLineLongerThanTheLimitDoesNotExposeItsSources) {
    std::string line =
        R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[{"name":"a","kind":"data_movement_0","source_bytes":)" +
        std::to_string(kRequestLookingSource.size()) + R"(,"defines":{"BIG":")" + std::string(1100000, 'x') + "\"}}]}";
    expect_error(rt->request(line, kRequestLookingSource + "\n"), "protocol",
                 "longer than 1048576 bytes; skipped; the input after it was discarded");
    expect_next_response_is_ours();
    expect_still_serving();
}

TEST_F(BadInput, CompileIsDecidedFromTheParsedCommand) {
    // "compile\u005fprogram" is compile_program once decoded: its sources are skipped with it.
    std::string line =
        R"({"cmd":"compile\u005fprogram","seq":5,"bogus":1,"grid":{"rows":1,"cols":1},"kernels":[{"name":"a","kind":"data_movement_0","source_bytes":)" +
        std::to_string(kRequestLookingSource.size()) + "}]}";
    json j = rt->request(line, kRequestLookingSource + "\n");
    expect_error(j, "protocol", "unknown field 'bogus'");
    EXPECT_EQ(j["seq"], 5);
    expect_next_response_is_ours();
    // A request that merely mentions "compile_program" in a string is not a compile.
    expect_error(rt->request(R"({"cmd":"free_buf","buffer":999,"note":"compile_program"})"), "protocol",
                 "unknown field 'note'");
    expect_next_response_is_ours();
    expect_still_serving();
}

TEST_F(BadInput, UnreadableLinesDiscardTheInputUntilIdle) {
    // Not JSON, or a duplicate key: whether sources follow cannot be known, so the runtime
    // discards what follows until the input is idle and answers the line once.
    for (std::string line :
         {std::string(R"({"cmd":"compile_program","kernels":[{"source_bytes":50}])"),
          std::string(
              R"({"cmd":"compile_program","cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[]})")}) {
        json j = rt->request(line, kRequestLookingSource + "\n");
        ASSERT_EQ(j.value("ok", true), false) << j.dump();
        EXPECT_EQ(j["error"]["status"], "protocol") << j.dump();
        EXPECT_NE(j["error"]["message"].get<std::string>().find("discarded until it was idle"), std::string::npos)
            << j.dump();
        expect_next_response_is_ours();
    }
    expect_still_serving();
}

// A runtime whose target failed to start frames compile_program like any other: one answer for
// the line and its sources.
TEST(BadInputFailedTarget, CompileSourcesAreNotAnsweredAsRequests) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("fails the target through --preset, an emulator target option");
    test::RawRuntime rt({"--preset", "no-such-chip", "--raw-timeout-ms", "300"});
    std::string line =
        R"({"cmd":"compile_program","seq":3,"grid":{"rows":1,"cols":1},"kernels":[{"name":"a","kind":"data_movement_0","source_bytes":)" +
        std::to_string(kRequestLookingSource.size()) + "}]}";
    json j = rt.request(line, kRequestLookingSource + "\n");
    expect_error(j, "invalid_argument", "no-such-chip");
    EXPECT_EQ(j["seq"], 3);
    j = rt.request(R"({"cmd":"ping","seq":9})");
    EXPECT_EQ(j["seq"], 9) << "a source line was answered: " << j.dump();
    EXPECT_EQ(rt.request(R"({"cmd":"exit"})"), json::parse(R"({"ok":true})"));
}

TEST_F(BadInput, SourceLengthLargerThanWhatFollows) {
    std::string line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json("reader", "data_movement_0", 5000) + "]}";
    // Only 10 of the declared 5000 bytes arrive; the runtime gives up after its raw timeout.
    json j = rt->request(line, "void f() {");
    expect_error(j, "protocol", "declared 5000 source bytes but only 10 arrived");
    expect_still_serving();
}

TEST_F(BadInput, SourcesNotFollowedByNewline) {
    std::string line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json("reader", "data_movement_0", 4) + "]}";
    expect_error(rt->request(line, "abcdefgh"), "protocol", "not followed by '\\n'");
    expect_still_serving();
}

TEST_F(BadInput, BadProgramDescriptionStillConsumesItsSources) {
    std::string src = "void kernel_main() {}\n{\"cmd\":\"exit\"}\n";  // would end the runtime if taken as requests
    std::string line =
        R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"cbs":[{"index":0,"format":"Float64","page_bytes":4,"num_pages":1}],"kernels":[)" +
        kernel_json("reader", "data_movement_0", src.size()) + "]}";
    expect_error(rt->request(line, src + "\n"), "invalid_argument", "unknown data format 'Float64'");
    expect_still_serving();
}

TEST_F(BadInput, GridLargerThanTheDevice) {
    std::string src = "void kernel_main() {}";
    std::string line = R"({"cmd":"compile_program","grid":{"rows":99,"cols":1},"kernels":[)" +
        kernel_json("reader", "data_movement_0", src.size()) + "]}";
    expect_error(rt->request(line, src + "\n"), "invalid_argument",
                 "grid 99x1 (rows x cols) exceeds the device grid 8x8");
    line =
        R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"cbs":[{"index":40,"format":"Float16_b","page_bytes":2048,"num_pages":2}],"kernels":[)" +
        kernel_json("reader", "data_movement_0", src.size()) + "]}";
    expect_error(rt->request(line, src + "\n"), "invalid_argument", "CB 40 is beyond the device's 32");
    expect_still_serving();
}

// Circular buffers must fit a core's L1 (l1_bytes in hello), each and together, computed in
// 64 bits: 2^31-byte pages x 2 wraps to 0 in 32. Both targets report the L1 above the reserved
// area: 1433600 B on a Wormhole n150.
TEST_F(BadInput, CircularBuffersLargerThanL1AreRefused) {
    std::string src = "void kernel_main() {}";
    auto line = [&](const std::string& cbs) {
        return R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"cbs":[)" + cbs + R"(],"kernels":[)" +
            kernel_json("reader", "data_movement_0", src.size()) + "]}";
    };
    expect_error(
        rt->request(line(R"({"index":3,"format":"Float16_b","page_bytes":2147483648,"num_pages":2})"), src + "\n"),
        "invalid_argument", "CB 3: 2147483648 page bytes x 2 pages = 4294967296 bytes exceed l1_bytes 1433600");
    expect_error(rt->request(line(R"({"index":0,"format":"Float16_b","page_bytes":2048,"num_pages":400},)"
                                  R"({"index":1,"format":"Float16_b","page_bytes":2048,"num_pages":400})"),
                             src + "\n"),
                 "invalid_argument", "the circular buffers need 1638400 bytes together, more than l1_bytes 1433600");
    expect_still_serving();
}

TEST_F(BadInput, KernelWithACompileErrorCarriesTheCompilersMessage) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET(
        "tt-metal compiles a program's kernels together and does not know the protocol's "
        "kernel names");
    std::string src = "void kernel_main() { undeclared_thing_42 = 1; }";
    std::string line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json("reader", "data_movement_0", src.size()) + "]}";
    json j = rt->request(line, src + "\n");
    expect_error(j, "kernel_compilation", "undeclared_thing_42");
    expect_error(j, "kernel_compilation", "kernel 'reader'");
    expect_still_serving();
}

// Errors from a run name the program by its protocol id. A second launch grid makes a second
// device instance of the program, so the emulator's own id (2) differs from the protocol's (1).
TEST_F(BadInput, RunErrorsNameTheProtocolsProgramId) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET(
        "deadlock detection is the emulator target's; tt-metal reports a deadlock as a "
        "timeout");
    std::string src = "void kernel_main() { cb_wait_front(tt::CBIndex::c_0, 1); }";  // nobody ever pushes
    std::string line =
        R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"cbs":[{"index":0,"format":"Float16_b","page_bytes":2048,"num_pages":2}],"kernels":[)" +
        kernel_json("waiter", "data_movement_0", src.size()) + "]}";
    json c = rt->ok(line, src + "\n");
    const uint32_t program = c["program"].get<uint32_t>();
    ASSERT_EQ(program, 1u);
    // Launch grids without cores are kernel_launch, as every other launch grid error.
    expect_error(rt->request(R"({"cmd":"run","program":1,"grid":{"rows":0,"cols":8}})"), "kernel_launch",
                 "grid 0x8 has no cores");
    expect_error(rt->request(R"({"cmd":"run","program":1,"grid":{"rows":9,"cols":1}})"), "kernel_launch",
                 "exceeds the device grid");
    json j = rt->request(R"({"cmd":"run","program":1,"grid":{"rows":1,"cols":2}})");
    expect_error(j, "deadlock", "run: program 1 on grid 1x2: deadlock: every kernel of program 1 is blocked");
    std::string msg = j["error"]["message"].get<std::string>();
    EXPECT_EQ(msg.find("program 2"), std::string::npos) << "the emulator's own program id leaked: " << msg;
    rt->ok(R"({"cmd":"release_program","program":1})");
    expect_still_serving();
}

TEST_F(BadInput, MessagesWithQuotesAndNewlinesStayOneLine) {
    // The command name comes back inside the error message: quotes, backslash and newline must
    // be escaped so that the response is one valid JSON line.
    json j = rt->request(R"({"cmd":"say \"hi\"\\\n\ttwice"})");
    expect_error(j, "protocol", "unknown command 'say \"hi\"\\\n\ttwice'");
    std::string src = "x";
    std::string line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json(R"(read\"er\n)", "tensor_core", src.size()) + "]}";
    expect_error(rt->request(line, src + "\n"), "invalid_argument", "kernel 'read\"er\n': unknown kind 'tensor_core'");
    expect_still_serving();
}

TEST_F(BadInput, StatsCountRequestsAndErrors) {
    rt->request(R"({"cmd":"bogus"})");
    json s = rt->ok(R"({"cmd":"stats"})");
    EXPECT_GE(s["errors"].get<uint64_t>(), 1u);
    EXPECT_EQ(s["buffers"], 1);
    EXPECT_EQ(s["buffer_bytes"], 65536);
    EXPECT_EQ(s["bytes_written"], 65536);
    EXPECT_EQ(s["arena_bytes"], 1 << 20);
}

// An explicit page size of 0 is a bad value, not a request for the default.
TEST_F(BadInput, AllocBufWithPageBytesZero) {
    expect_error(rt->request(R"({"cmd":"alloc_buf","bytes":4096,"page_bytes":0})"), "invalid_argument", "page_bytes 0");
    json a = rt->ok(R"({"cmd":"alloc_buf","bytes":4096})");
    EXPECT_EQ(a["page_bytes"], 4096) << "without the field, the default";
    expect_still_serving();
}

// A NUL byte anywhere in a line makes it a protocol error, even after a complete object.
TEST_F(BadInput, LineWithANulByte) {
    expect_error(rt->request(std::string("{\"cmd\":\"ping\",\"seq\":4}\0 not JSON", 33)), "protocol",
                 "NUL byte at offset 22");
    expect_error(rt->request(std::string("{\"cmd\":\"pi\0ng\"}", 15)), "protocol", "NUL byte at offset 10");
    expect_next_response_is_ours();
    expect_still_serving();
}

// A kernel without an entry point is a compile error at compile_program, not a fault at run.
TEST_F(BadInput, KernelWithoutEntryPoint) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET(
        "tt-metal compiles a program's kernels together and does not know the protocol's "
        "kernel names");
    std::string src = "inline int helper() { return 1; }\n";
    std::string line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json("reader", "data_movement_0", src.size()) + "]}";
    expect_error(rt->request(line, src + "\n"), "kernel_compilation", "kernel 'reader' defines neither kernel_main()");
    std::string cpt = "namespace NAMESPACE { void helper() {} }\n";
    line = R"({"cmd":"compile_program","grid":{"rows":1,"cols":1},"kernels":[)" +
        kernel_json("compute", "compute", cpt.size()) + "]}";
    expect_error(rt->request(line, cpt + "\n"), "kernel_compilation", "kernel 'compute' defines neither kernel_main()");
    expect_still_serving();
}

// The runtime owns its device: a second runtime for the same device id answers device_busy with
// the first one's pid and exits; once the first is gone (SIGKILL: nothing cleans up), a new one starts.
TEST(RuntimeDeviceLock, SecondRuntimeOnOneDeviceIsRefused) {
    ZYX_SKIP_UNLESS_EMULATOR_TARGET("opens device ids 3 and 4; the tt-metal compat layer emulates one chip (id 0)");
    const std::string dir = test::temp_dir("runtime-lock").string();
    test::RawRuntime first({"--lock-dir", dir, "--device-id", "3"});
    first.ok(R"({"cmd":"hello","version":1})");
    const std::string pid = std::to_string(first.proc->pid());
    {
        test::RawRuntime second({"--lock-dir", dir, "--device-id", "3"});
        json j = second.request(R"({"cmd":"hello","version":1,"seq":1})");
        expect_error(j, "device_busy", "device 3 is served by runtime process " + pid);
        EXPECT_EQ(j["seq"], 1);
        EXPECT_EQ(second.proc->reap(10000), "exited with status 1") << "the refused runtime must leave";
    }
    {
        test::RawRuntime other_device({"--lock-dir", dir, "--device-id", "4"});
        other_device.ok(R"({"cmd":"hello","version":1})");
    }
    first.ok(R"({"cmd":"ping"})");  // the holder is unaffected
    first.proc->kill();
    test::RawRuntime third({"--lock-dir", dir, "--device-id", "3"});
    third.ok(R"({"cmd":"hello","version":1})");
}
