// tt-metal's TensorAccessorArgs (tt-metalium/tensor_accessor_args.hpp): the compile-time args a
// kernel's TensorAccessorArgs<offset>() reads for a buffer. For interleaved DRAM and L1 buffers
// that is two words, [ArgConfig bits (IsDram = 2 for DRAM, 0 for L1), aligned page size], as in
// tt-metal's newest form; there are no common runtime args. An ArgsConfig other than None, and
// a sharded buffer (runtime rank, shapes, bank coordinates), throw Unsupported.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <tt-metalium/buffer.hpp>

namespace tt::tt_metal {

namespace tensor_accessor {
enum class ArgConfig : uint8_t {
    None = 0,
    Sharded = 1 << 0,
    IsDram = 1 << 1,
    RuntimeRank = 1 << 2,
    RuntimeNumBanks = 1 << 3,
    RuntimeTensorShape = 1 << 4,
    RuntimeShardShape = 1 << 5,
    RuntimeBankCoords = 1 << 6,
    Runtime = RuntimeRank | RuntimeNumBanks | RuntimeTensorShape | RuntimeShardShape | RuntimeBankCoords,
};
// A set of ArgConfig bits.
struct ArgsConfig {
    constexpr ArgsConfig(ArgConfig c = ArgConfig::None) : bits(uint8_t(c)) {}
    uint8_t bits;
    constexpr uint32_t raw() const { return bits; }
};
constexpr ArgsConfig operator|(ArgConfig a, ArgConfig b) {
    ArgsConfig c(a);
    c.bits |= uint8_t(b);
    return c;
}
}  // namespace tensor_accessor

class TensorAccessorArgs {
public:
    TensorAccessorArgs() = default;
    explicit TensorAccessorArgs(const Buffer& buffer,
                                tensor_accessor::ArgsConfig args_config = tensor_accessor::ArgConfig::None);
    explicit TensorAccessorArgs(const Buffer* buffer,
                                tensor_accessor::ArgsConfig args_config = tensor_accessor::ArgConfig::None);
    explicit TensorAccessorArgs(const std::shared_ptr<Buffer>& buffer,
                                tensor_accessor::ArgsConfig args_config = tensor_accessor::ArgConfig::None);

    // Accessors for a DRAM (L1) interleaved tensor whose page size the kernel passes itself.
    static TensorAccessorArgs create_dram_interleaved();
    static TensorAccessorArgs create_l1_interleaved();

    void append_to(std::vector<uint32_t>& compile_time_args) const;
    void append_to(std::vector<uint32_t>& compile_time_args, std::vector<uint32_t>& common_runtime_args) const;
    std::vector<uint32_t> get_compile_time_args() const;
    std::vector<uint32_t> get_common_runtime_args() const { return {}; }

    static constexpr size_t MAX_NUM_DIMENSIONS = 8;

private:
    const Buffer* buffer_ = nullptr;
    bool l1_ = false;
};

}  // namespace tt::tt_metal
