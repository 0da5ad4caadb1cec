// TensorAccessor for interleaved buffers (tt-metal api/tensor/tensor_accessor.h).
//
//   constexpr auto args = TensorAccessorArgs<0>();           // reads ct args [config, aligned page]
//   auto acc = TensorAccessor(args, bank_base_address, page_size);
//   noc_async_read_page(i, acc, l1_addr);
//   constexpr auto next = TensorAccessorArgs<args.next_compile_time_args_offset()>();
//
// DRAM- and L1-interleaved buffers (ArgConfig IsDram set or not). L1 bank b is worker core b in
// row-major order over the grid, as tt-metal's L1 banking allocator numbers them (one bank per
// worker core); the emulator's kernel build passes the grid as ZYX_EMU_GRID_X / _Y. Sharded
// accessors are not implemented: using one is an "Unsupported" fault (kernels reach their own
// shard through a CB placed on the buffer).
#pragma once

#include <cstddef>
#include <cstdint>

namespace tensor_accessor {
// An offset not known at compile time (tt-metal internal/tensor/const.h).
constexpr std::size_t UNKNOWN = ~std::size_t(0);
}  // namespace tensor_accessor

namespace zyx_emu_detail {
// NoC address of byte `offset` of page `page_id` of an L1-interleaved buffer: bank
// page_id % banks (the worker core (bank % X, bank / X)) at base + (page_id / banks) * stride.
// NoC coordinates as Device::worker_core: Wormhole logical + 18, Blackhole the Tensix column
// of NoC0 and row + 2.
// The number of L1 banks: one per worker core.
inline uint32_t l1_bank_count() {
#if defined(ZYX_EMU_GRID_X) && defined(ZYX_EMU_GRID_Y)
    return uint32_t(ZYX_EMU_GRID_X) * uint32_t(ZYX_EMU_GRID_Y);
#else
    return 0;
#endif
}
inline uint64_t l1_interleaved_page_addr(uint32_t base, uint32_t page_id, uint32_t stride, uint32_t offset,
                                         uint8_t noc) {
#if defined(ZYX_EMU_GRID_X) && defined(ZYX_EMU_GRID_Y)
    constexpr uint32_t banks = uint32_t(ZYX_EMU_GRID_X) * uint32_t(ZYX_EMU_GRID_Y);
    const uint32_t bank = page_id % banks, row = page_id / banks;
    const uint32_t lx = bank % uint32_t(ZYX_EMU_GRID_X), ly = bank / uint32_t(ZYX_EMU_GRID_X);
    constexpr uint8_t kBlackholeTensixX[] = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16};
    const bool wormhole = ZYX_EMU.device_info()->arch == 0;
    const uint32_t x = wormhole ? lx + 18 : kBlackholeTensixX[lx < 14 ? lx : 13];
    const uint32_t y = wormhole ? ly + 18 : ly + 2;
    return get_noc_addr(x, y, base + row * stride + offset, noc);
#else
    (void)base, (void)page_id, (void)stride, (void)offset, (void)noc;
    ZYX_EMU.kernel_fault("Unsupported: L1-interleaved TensorAccessor without the emulator's grid defines");
    return 0;
#endif
}
}  // namespace zyx_emu_detail

// CTA_OFFSET: index of the accessor's first compile-time arg. CRTA_OFFSET: index of its first
// common runtime arg (interleaved buffers use none), known at compile time or passed to the
// constructor. Interleaved buffers take two compile-time args: [ArgConfig bits, aligned page].
template <std::size_t CTA_OFFSET, std::size_t CRTA_OFFSET = tensor_accessor::UNKNOWN>
struct TensorAccessorArgs {
    static constexpr uint32_t config = zyx_emu_detail::get_ct_arg<CTA_OFFSET>();
    static constexpr uint32_t aligned_page_size = zyx_emu_detail::get_ct_arg<CTA_OFFSET + 1>();
    static constexpr uint32_t AlignedPageSize = aligned_page_size;
    static constexpr bool is_sharded = (config & 1u) != 0;
    static constexpr bool is_dram = (config & 2u) != 0;

    constexpr TensorAccessorArgs() : crta_offset_rt_(0) {}
    constexpr explicit TensorAccessorArgs(uint32_t crta_offset) : crta_offset_rt_(crta_offset) {
        static_assert(CRTA_OFFSET == tensor_accessor::UNKNOWN, "Do not pass crta_offset when CRTA_OFFSET is known");
    }
    constexpr uint32_t crta_offset() const {
        if constexpr (CRTA_OFFSET != tensor_accessor::UNKNOWN)
            return uint32_t(CRTA_OFFSET);
        else
            return crta_offset_rt_;
    }
    static constexpr uint32_t get_aligned_page_size() { return aligned_page_size; }
    static constexpr uint32_t num_compile_time_args() { return 2; }
    static constexpr uint32_t next_compile_time_args_offset() { return uint32_t(CTA_OFFSET) + 2; }
    constexpr uint32_t num_common_runtime_args() const { return 0; }
    constexpr uint32_t next_common_runtime_args_offset() const { return crta_offset() + num_common_runtime_args(); }

private:
    uint32_t crta_offset_rt_;
};

template <typename Args>
struct TensorAccessor {
    uint32_t bank_base_address;
    uint32_t page_size;
    TensorAccessor(const Args&, uint32_t base, uint32_t page = Args::aligned_page_size)
        : bank_base_address(base), page_size(page) {}
    uint32_t get_aligned_page_size() const {
        return zyx_emu_detail::align_up(page_size,
                                        Args::is_dram ? ZYX_EMU.device_info()->dram_alignment : L1_ALIGNMENT);
    }
    uint64_t get_noc_addr(uint32_t page_id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        if (Args::is_sharded) ZYX_EMU.kernel_fault("Unsupported: sharded TensorAccessor");
        if (!Args::is_dram)
            return zyx_emu_detail::l1_interleaved_page_addr(bank_base_address, page_id, get_aligned_page_size(), offset,
                                                            noc);
        return zyx_emu_detail::interleaved_page_addr(Args::is_dram, bank_base_address, page_id, get_aligned_page_size(),
                                                     offset, noc);
    }
};
