// Partial transfers (docs/protocol.md, write_buf / read_buf): ranges that start or end inside a
// page, lie inside one page, or cover whole pages leave every other byte of the buffer as it was.
// Runs through the test's target (runtime_test_util.hpp): the metal target moves whole pages and
// stages the partial ones (runtime/target_metal.cpp), the emulator target writes bytes.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "runtime_test_util.hpp"

namespace zyx::tt {
namespace {

using nlohmann::json;

TEST(RuntimePartialTransfer, UnalignedRangesKeepTheRestOfTheBuffer) {
    test::RawRuntime rt;
    rt.start(1 << 20);
    constexpr uint64_t bytes = 5 * 1024 + 300, page = 1024;  // the last page is partial too
    json a = rt.ok(R"({"cmd":"alloc_buf","bytes":)" + std::to_string(bytes) + R"(,"page_bytes":)" +
                   std::to_string(page) + "}");
    const std::string buf = std::to_string(a["buffer"].get<uint32_t>());
    uint8_t* arena = rt.arena->data();

    std::vector<uint8_t> model(bytes);
    for (size_t i = 0; i < bytes; ++i) model[i] = uint8_t(i * 13 + 1);
    std::memcpy(arena, model.data(), bytes);
    rt.ok(R"({"cmd":"write_buf","buffer":)" + buf + R"(,"bytes":)" + std::to_string(bytes) + "}");

    struct Range {
        uint64_t offset, n;
    };
    // Head and tail inside pages; inside one page; whole pages; the partial last page; empty.
    const Range writes[] = {{1000, 1500}, {2100, 10}, {3072, 1024}, {5 * 1024 + 7, 200}, {17, 0}};
    uint8_t fill = 0xA0;
    for (const Range& r : writes) {
        std::memset(arena + 200000, fill, r.n);
        std::memset(model.data() + r.offset, fill, r.n);
        rt.ok(R"({"cmd":"write_buf","buffer":)" + buf + R"(,"offset":)" + std::to_string(r.offset) + R"(,"bytes":)" +
              std::to_string(r.n) + R"(,"arena_offset":200000})");
        ++fill;
    }
    std::memset(arena + 400000, 0, bytes);
    rt.ok(R"({"cmd":"read_buf","buffer":)" + buf + R"(,"bytes":)" + std::to_string(bytes) +
          R"(,"arena_offset":400000})");
    for (uint64_t i = 0; i < bytes; ++i)
        ASSERT_EQ(arena[400000 + i], model[i]) << "byte " << i << " after the partial writes";

    // Partial reads return exactly their range.
    const Range reads[] = {{1500, 700}, {4100, 3}, {0, 1024}, {5 * 1024 + 250, 50}};
    for (const Range& r : reads) {
        std::memset(arena + 600000, 0x5A, r.n + 16);
        rt.ok(R"({"cmd":"read_buf","buffer":)" + buf + R"(,"offset":)" + std::to_string(r.offset) + R"(,"bytes":)" +
              std::to_string(r.n) + R"(,"arena_offset":600000})");
        EXPECT_EQ(std::memcmp(arena + 600000, model.data() + r.offset, r.n), 0) << "read at " << r.offset;
        for (int k = 0; k < 16; ++k) EXPECT_EQ(arena[600000 + r.n + k], 0x5A) << "read past " << r.n << " bytes";
    }
}

}  // namespace
}  // namespace zyx::tt
