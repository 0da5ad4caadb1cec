// The request parser and response helpers of the runtime protocol, without any process.
#include <gtest/gtest.h>

#include "backend/tenstorrent/protocol.hpp"

using namespace zyx;
using namespace zyx::tt::protocol;

namespace {

// Expects parse_request(line) to throw `status` with `fragment` in the message.
void expect_reject(const std::string& line, ErrorStatus status, const std::string& fragment) {
    try {
        (void)parse_request(line);
        FAIL() << "accepted: " << line;
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), status) << e.what() << "\nfor: " << line;
        EXPECT_NE(e.message().find(fragment), std::string::npos)
            << "message '" << e.message() << "' lacks '" << fragment << "'";
    }
}

Program sample_program() {
    Program p;
    Kernel reader;
    reader.name = "reader";
    reader.kind = KernelKind::data_movement_0;
    reader.source = "void kernel_main() {}";
    reader.compile_args = {1, 2, 3};
    reader.defines = {{"TILE", "32"}};
    reader.runtime_args = {{ArgSource::input_address, 0}, {ArgSource::input_pages, 1}, {ArgSource::core_x, 0},
                           {ArgSource::literal, 77},      {ArgSource::scalar, 0},      {ArgSource::num_cores, 0}};
    reader.noc = 1;
    Kernel compute;
    compute.name = "compute";
    compute.kind = KernelKind::compute;
    compute.source = "namespace NAMESPACE { void MAIN {} }";
    p.kernels = {reader, compute};
    p.cbs = {{0, DataFormat::Float16_b, 2048, 2}, {16, DataFormat::Float32, 4096, 4}};
    p.semaphores = {0, 5};
    p.grid = {2, 3};
    p.num_inputs = 2;
    p.num_outputs = 1;
    p.num_scalars = 1;
    p.fp32_dest_acc = true;
    p.math_fidelity = MathFidelity::LoFi;
    p.unpack_to_dest_fp32 = {16};
    return p;
}

}  // namespace

TEST(Protocol, EveryCommandRoundTripsThroughJson) {
    std::vector<Request> reqs;
    Request r;
    r.cmd = Command::hello, r.seq = 1, r.version = kVersion;
    reqs.push_back(r);
    r = {}, r.cmd = Command::arena_map, r.arena_name = "/zyx-arena-1", r.arena_bytes = 1 << 20;
    reqs.push_back(r);
    r = {}, r.cmd = Command::alloc_buf, r.bytes = 12345, r.page_bytes = 2048, r.seq = 99;
    reqs.push_back(r);
    r = {}, r.cmd = Command::write_buf, r.buffer = 7, r.offset = 4096, r.bytes = 100, r.arena_offset = 64;
    reqs.push_back(r);
    r = {}, r.cmd = Command::copy_buf, r.src_buffer = 3, r.buffer = 4, r.bytes = 8;
    reqs.push_back(r);
    r = {}, r.cmd = Command::run, r.program_id = 5, r.inputs = {1, 2}, r.outputs = {3}, r.scalars = {0xffffffffu},
    r.grid = Grid{2, 2};
    reqs.push_back(r);
    for (const Request& want : reqs) {
        Request got = parse_request(request_json(want));
        EXPECT_EQ(got.cmd, want.cmd);
        EXPECT_EQ(got.seq, want.seq);
        EXPECT_EQ(got.arena_name, want.arena_name);
        EXPECT_EQ(got.bytes, want.bytes);
        EXPECT_EQ(got.page_bytes, want.page_bytes);
        EXPECT_EQ(got.buffer, want.buffer);
        EXPECT_EQ(got.src_buffer, want.src_buffer);
        EXPECT_EQ(got.offset, want.offset);
        EXPECT_EQ(got.arena_offset, want.arena_offset);
        EXPECT_EQ(got.inputs, want.inputs);
        EXPECT_EQ(got.outputs, want.outputs);
        EXPECT_EQ(got.scalars, want.scalars);
        EXPECT_EQ(got.grid, want.grid);
    }
}

TEST(Protocol, ProgramDescriptionRoundTripsExceptSources) {
    Request r;
    r.cmd = Command::compile_program;
    r.program = sample_program();
    for (const Kernel& k : r.program.kernels) r.source_bytes.push_back(k.source.size());
    Request got = parse_request(request_json(r));
    ASSERT_EQ(got.program.kernels.size(), 2u);
    EXPECT_EQ(got.source_bytes, (std::vector<uint64_t>{21, 36}));
    Program want = r.program;
    for (Kernel& k : want.kernels) k.source.clear();  // sources travel as raw bytes
    EXPECT_EQ(got.program, want);
}

TEST(Protocol, MalformedJsonUnknownCommandAndMissingFields) {
    expect_reject("{\"cmd\":\"ping\"", ErrorStatus::Protocol, "malformed JSON");
    expect_reject("[1,2,3]", ErrorStatus::Protocol, "must be a JSON object");
    // Found by fuzzing: a number beyond double's range is an out_of_range error in the JSON
    // library, not a parse_error; it must still become a Protocol error.
    expect_reject("{\"cmd\":\"alloc_buf\",\"bytes\":1048e576}", ErrorStatus::Protocol, "number overflow");
    expect_reject("{\"cmd\":\"format_disk\"}", ErrorStatus::Protocol, "unknown command 'format_disk'");
    expect_reject("{\"seq\":1}", ErrorStatus::Protocol, "missing field 'cmd'");
    expect_reject("{\"cmd\":\"alloc_buf\"}", ErrorStatus::Protocol, "alloc_buf: missing field 'bytes'");
    expect_reject("{\"cmd\":\"alloc_buf\",\"bytes\":\"12\"}", ErrorStatus::Protocol,
                  "field 'bytes' must be an unsigned integer, got a string");
    expect_reject("{\"cmd\":\"alloc_buf\",\"bytes\":-1}", ErrorStatus::Protocol, "got a negative integer");
    expect_reject("{\"cmd\":\"alloc_buf\",\"bytes\":1.5}", ErrorStatus::Protocol, "got a floating-point number");
    expect_reject("{\"cmd\":\"free_buf\",\"buffer\":4294967296}", ErrorStatus::Protocol, "does not fit 32 bits");
    expect_reject("{\"cmd\":\"write_buf\",\"buffer\":1,\"bytes\":1,\"bytse\":2}", ErrorStatus::Protocol,
                  "unknown field 'bytse'");
    expect_reject("{\"cmd\":\"hello\"}", ErrorStatus::Protocol, "missing field 'version'");
    expect_reject("{\"cmd\":\"ping\",\"seq\":\"x\"}", ErrorStatus::Protocol, "seq");
    expect_reject(std::string(100, '[') + std::string(100, ']'), ErrorStatus::Protocol, "nests deeper");
}

TEST(Protocol, ProgramLimitsAndIndicesAreChecked) {
    const std::string head = "{\"cmd\":\"compile_program\",\"grid\":{\"rows\":1,\"cols\":1},";
    expect_reject(head + "\"kernels\":[]}", ErrorStatus::InvalidArgument, "at least one kernel");
    expect_reject(head + "\"kernels\":[{\"name\":\"r\",\"kind\":\"gpu\",\"source_bytes\":1}]}",
                  ErrorStatus::InvalidArgument, "unknown kind 'gpu'");
    expect_reject(head + "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":99999999999}]}",
                  ErrorStatus::InvalidArgument, "exceeds the limit");
    expect_reject(
        head +
            "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1},{\"name\":\"w\",\"kind\":\"compute\",\"source_bytes\":1}]}",
        ErrorStatus::InvalidArgument, "at most one kernel of kind compute");
    expect_reject(head +
                      "\"num_inputs\":1,\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1,"
                      "\"runtime_args\":[{\"src\":\"input_address\",\"index\":1}]}]}",
                  ErrorStatus::InvalidArgument, "names input_address index 1 but the program declares only 1");
    expect_reject(
        head +
            "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1,\"runtime_args\":[{\"src\":\"core_x\",\"index\":0}]}]}",
        ErrorStatus::Protocol, "takes neither");
    expect_reject(
        head +
            "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1}],\"cbs\":[{\"index\":0,\"format\":\"Float64\","
            "\"page_bytes\":4,\"num_pages\":1}]}",
        ErrorStatus::InvalidArgument, "unknown data format 'Float64'");
    expect_reject(head +
                      "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1}],\"cbs\":[{\"index\":0,"
                      "\"format\":\"Float32\",\"page_bytes\":4096,\"num_pages\":1}],\"unpack_to_dest_fp32\":[0,3]}",
                  ErrorStatus::InvalidArgument, "unpack_to_dest_fp32 names CB 3, which the program does not declare");
    expect_reject(
        head + "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1,\"defines\":{\"A B\":\"1\"}}]}",
        ErrorStatus::InvalidArgument, "not a C identifier");
    expect_reject(
        "{\"cmd\":\"compile_program\",\"grid\":{\"rows\":0,\"cols\":1},\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1}]}",
        ErrorStatus::InvalidArgument, "has no cores");
    expect_reject("{\"cmd\":\"run\",\"program\":1,\"grid\":{\"rows\":0,\"cols\":8}}", ErrorStatus::KernelLaunch,
                  "run.grid: grid 0x8 has no cores");
    std::string many = "[";
    for (int i = 0; i < 342; ++i) many += std::string(i ? "," : "") + "{\"src\":\"core_y\"}";
    many += "]";
    expect_reject(
        head + "\"kernels\":[{\"name\":\"r\",\"kind\":\"compute\",\"source_bytes\":1,\"runtime_args\":" + many + "}]}",
        ErrorStatus::InvalidArgument, "342 entries; the limit is 341");
}

// JSON parsers disagree on which of two equal keys wins, so the protocol refuses both, at every
// depth, also when one of them is written with escapes.
TEST(Protocol, DuplicateKeysAreRefusedByName) {
    expect_reject("{\"cmd\":\"ping\",\"cmd\":\"exit\"}", ErrorStatus::Protocol, "duplicate key 'cmd'");
    expect_reject("{\"cmd\":\"ping\",\"c\\u006dd\":\"exit\"}", ErrorStatus::Protocol, "duplicate key 'cmd'");
    expect_reject("{\"cmd\":\"alloc_buf\",\"bytes\":8,\"bytes\":16}", ErrorStatus::Protocol, "duplicate key 'bytes'");
    expect_reject("{\"cmd\":\"run\",\"program\":1,\"grid\":{\"rows\":1,\"rows\":2,\"cols\":1}}", ErrorStatus::Protocol,
                  "duplicate key 'rows'");
    // Equal keys in different objects are fine.
    Request r = parse_request("{\"cmd\":\"run\",\"program\":1,\"grid\":{\"rows\":2,\"cols\":1},\"inputs\":[]}");
    EXPECT_EQ(r.grid->rows, 2u);
    r = parse_request(
        "{\"cmd\":\"compile_program\",\"grid\":{\"rows\":1,\"cols\":1},\"kernels\":[{\"name\":\"a\",\"kind\":"
        "\"compute\",\"source_bytes\":1},{\"name\":\"b\",\"kind\":\"data_movement_0\",\"source_bytes\":2}]}");
    EXPECT_EQ(r.source_bytes, (std::vector<uint64_t>{1, 2}));
}

TEST(Protocol, ArenaNamesMustBePlainShmNames) {
    expect_reject("{\"cmd\":\"arena_map\",\"name\":\"/dev/shm/x\",\"bytes\":1}", ErrorStatus::InvalidArgument,
                  "arena name");
    expect_reject("{\"cmd\":\"arena_map\",\"name\":\"noslash\",\"bytes\":1}", ErrorStatus::InvalidArgument,
                  "arena name");
    EXPECT_EQ(parse_request("{\"cmd\":\"arena_map\",\"name\":\"/zyx-ok\",\"bytes\":1}").arena_name, "/zyx-ok");
}

TEST(Protocol, ErrorResponsesCarryStatusAndMessageVerbatim) {
    // A message with quotes, backslashes and newlines must survive the JSON line intact.
    std::string msg = "kernel \"rea\\der\"\nline 2: error: expected ';'";
    std::string line = response_error(uint64_t(7), ErrorStatus::KernelCompilation, msg).dump();
    EXPECT_EQ(line.find('\n'), std::string::npos) << "a response must stay on one line";
    try {
        (void)parse_response(line, 7);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.status(), ErrorStatus::KernelCompilation);
        EXPECT_EQ(e.message(), msg);
    }
    auto ok = parse_response("{\"ok\":true,\"seq\":3,\"buffer\":9}", 3);
    EXPECT_EQ(ok["buffer"], 9);
}

TEST(Protocol, ResponsesOutOfOrderOrNotResponsesAreProtocolErrors) {
    for (std::string bad : {"{\"ok\":true,\"seq\":4}", "hello world", "{\"seq\":3}", "{\"ok\":false,\"seq\":3}"}) {
        try {
            (void)parse_response(bad, 3);
            FAIL() << bad;
        } catch (const Error& e) { EXPECT_EQ(e.status(), ErrorStatus::Protocol) << bad; }
    }
}

// The shared Tenstorrent vocabulary (core/tenstorrent_names.hpp): tt-metal's values, the
// protocol's wire names, and the protocol's own spellings of the types.
TEST(TenstorrentNames, ValuesAreTtMetalsAndWireNamesRoundTrip) {
    static_assert(std::is_same_v<DataFormat, zyx::tt::DataFormat> && std::is_same_v<KernelKind, zyx::tt::KernelKind> &&
                  std::is_same_v<MathFidelity, zyx::tt::MathFidelity>);
    EXPECT_EQ(int(DataFormat::Float32), 0);
    EXPECT_EQ(int(DataFormat::Float16), 1);
    EXPECT_EQ(int(DataFormat::Bfp8), 2);
    EXPECT_EQ(int(DataFormat::Float16_b), 5);
    EXPECT_EQ(int(DataFormat::Bfp8_b), 6);
    EXPECT_EQ(int(DataFormat::Int32), 8);
    EXPECT_EQ(int(DataFormat::UInt16), 9);
    EXPECT_EQ(int(DataFormat::UInt32), 24);
    EXPECT_EQ(int(DataFormat::UInt8), 30);
    EXPECT_EQ(int(DataFormat::Invalid), 0xff);
    EXPECT_EQ(int(MathFidelity::LoFi), 0);
    EXPECT_EQ(int(MathFidelity::HiFi2), 2);
    EXPECT_EQ(int(MathFidelity::HiFi3), 3);
    EXPECT_EQ(int(MathFidelity::HiFi4), 4);

    std::string wire;
    for (DataFormat f : zyx::tt::kWireDataFormats) {
        DataFormat back = DataFormat::Invalid;
        EXPECT_TRUE(data_format_from_name(data_format_name(f), &back)) << data_format_name(f);
        EXPECT_EQ(back, f);
        if (!wire.empty()) wire += ',';
        wire.append(data_format_name(f));
    }
    EXPECT_EQ(wire, "Float32,Float16,Float16_b,Bfp8_b,Int32,UInt32,UInt16,UInt8");  // docs/protocol.md, hello
    DataFormat untouched = DataFormat::UInt8;
    EXPECT_FALSE(data_format_from_name("Bfp8", &untouched));  // a tt-metal name, not a wire name
    EXPECT_FALSE(data_format_from_name("Invalid", &untouched));
    EXPECT_FALSE(data_format_from_name("float32", &untouched));
    EXPECT_EQ(untouched, DataFormat::UInt8);
    EXPECT_EQ(data_format_name(DataFormat::Bfp8), "Bfp8");
    EXPECT_EQ(data_format_name(DataFormat(3)), "Invalid");

    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Float32), 4096u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Int32), 4096u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::UInt32), 4096u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Float16), 2048u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Float16_b), 2048u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::UInt16), 2048u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::UInt8), 1024u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Bfp8), 1088u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Bfp8_b), 1088u);
    EXPECT_EQ(zyx::tt::tile_size_bytes(DataFormat::Invalid), 0u);

    const char* kinds[] = {"data_movement_0", "data_movement_1", "compute"};
    for (int i = 0; i < 3; ++i) {
        KernelKind k = KernelKind::compute;
        EXPECT_TRUE(kernel_kind_from_name(kinds[i], &k));
        EXPECT_EQ(int(k), i);
        EXPECT_EQ(kernel_kind_name(k), kinds[i]);
    }
    const char* fidelities[] = {"LoFi", "HiFi2", "HiFi3", "HiFi4"};
    for (const char* name : fidelities) {
        MathFidelity m = MathFidelity::LoFi;
        EXPECT_TRUE(math_fidelity_from_name(name, &m));
        EXPECT_EQ(math_fidelity_name(m), name);
    }
    MathFidelity m = MathFidelity::HiFi2;
    EXPECT_FALSE(math_fidelity_from_name("HiFi1", &m));
    EXPECT_EQ(m, MathFidelity::HiFi2);
}

TEST(TenstorrentNames, UnknownNamesListTheKnownOnesInWireOrder) {
    const std::string head = "{\"cmd\":\"compile_program\",\"grid\":{\"rows\":1,\"cols\":1},";
    const std::string kernel = "\"kernels\":[{\"name\":\"k\",\"kind\":\"compute\",\"source_bytes\":0}]";
    expect_reject(head + "\"kernels\":[{\"name\":\"k\",\"kind\":\"dm0\",\"source_bytes\":0}]}",
                  ErrorStatus::InvalidArgument,
                  "unknown kind 'dm0' (known: data_movement_0, data_movement_1, compute)");
    expect_reject(
        head + kernel + ",\"cbs\":[{\"index\":0,\"format\":\"Bfp8\",\"page_bytes\":1088,\"num_pages\":1}]}",
        ErrorStatus::InvalidArgument,
        "unknown data format 'Bfp8' (known: Float32, Float16, Float16_b, Bfp8_b, Int32, UInt32, UInt16, UInt8)");
    expect_reject(head + kernel + ",\"math_fidelity\":\"HiFi1\"}", ErrorStatus::InvalidArgument,
                  "unknown math_fidelity 'HiFi1' (known: LoFi, HiFi2, HiFi3, HiFi4)");
}
