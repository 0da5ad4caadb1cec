// Data-movement kernel API (BRISC / NCRISC), mirroring tt-metal's api/dataflow/dataflow_api.h.
// Names, argument orders and defaults follow the tt-metal release named in emulator/README.md.
// Everything here is a thin inline over the emulator's function table (zyx_emu/kernel_abi.h);
// the checks (CB rules, NoC bounds and alignment, barriers) happen in the emulator.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"
#include "api/common_args.h"

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif

// NoC facts as tt-metal's dev_mem_map / noc_parameters name them.
#define NUM_NOCS 2
#define NOC_ADDR_LOCAL_BITS 36
#define NOC_ADDR_NODE_ID_BITS 6
#define NOC_UNICAST_WRITE_VC 1
#ifdef ARCH_BLACKHOLE
#define NOC_MAX_BURST_SIZE 16384
#define DRAM_ALIGNMENT 64
#else
#define NOC_MAX_BURST_SIZE 8192
#define DRAM_ALIGNMENT 32
#endif
#define L1_ALIGNMENT 16

// noc_index, my_x[noc], my_y[noc] are firmware globals on silicon; here they read the running
// core's values.
#define noc_index (ZYX_EMU.noc_index())
#define my_x (ZYX_EMU.my_x())
#define my_y (ZYX_EMU.my_y())

// ---- core identity ---------------------------------------------------------------------------
inline uint32_t get_absolute_logical_x() { return ZYX_EMU.logical_x(); }
inline uint32_t get_absolute_logical_y() { return ZYX_EMU.logical_y(); }
inline uint32_t get_relative_logical_x() { return ZYX_EMU.logical_x(); }
inline uint32_t get_relative_logical_y() { return ZYX_EMU.logical_y(); }

// ---- circular buffers (only wait; pointers move on push/pop; tt-metal docs, "Circular Buffers")
inline void cb_reserve_back(int32_t operand, int32_t num_pages) { ZYX_EMU.cb_reserve_back(operand, num_pages); }
inline void cb_push_back(int32_t operand, int32_t num_pages) { ZYX_EMU.cb_push_back(operand, num_pages); }
inline void cb_wait_front(int32_t operand, int32_t num_pages) { ZYX_EMU.cb_wait_front(operand, num_pages); }
inline void cb_pop_front(int32_t operand, int32_t num_pages) { ZYX_EMU.cb_pop_front(operand, num_pages); }
inline uint32_t get_write_ptr(uint32_t operand) { return ZYX_EMU.get_write_ptr(int32_t(operand)); }
inline uint32_t get_read_ptr(uint32_t operand) { return ZYX_EMU.get_read_ptr(int32_t(operand)); }
inline bool cb_pages_reservable_at_back(int32_t operand, int32_t num_pages) {
    return ZYX_EMU.cb_pages_reservable_at_back(operand, num_pages);
}
inline bool cb_pages_available_at_front(int32_t operand, int32_t num_pages) {
    return ZYX_EMU.cb_pages_available_at_front(operand, num_pages);
}
inline uint32_t get_tile_size(uint8_t cb_id) { return ZYX_EMU.cb_tile_size(cb_id); }
inline uint32_t get_tile_hw(uint8_t) { return 1024; }
inline uint32_t get_tile_num_faces(uint8_t) { return 4; }

inline DataFormat get_dataformat(uint8_t cb_id) { return DataFormat(ZYX_EMU.cb_data_format(cb_id)); }

// ---- NoC addresses: (y << 42) | (x << 36) | local address --------------------------------------
inline uint64_t get_noc_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return (uint64_t(noc_y) << 42) | (uint64_t(noc_x) << 36) | addr;
}
inline uint64_t get_noc_addr(uint32_t addr, uint8_t noc = noc_index) {
    return get_noc_addr(my_x[noc], my_y[noc], addr, noc);
}
// Rectangle (x_start, y_start) … (x_end, y_end) for multicast writes.
inline uint64_t get_noc_multicast_addr(uint32_t x_start, uint32_t y_start, uint32_t x_end, uint32_t y_end,
                                       uint32_t addr, uint8_t noc = noc_index) {
    (void)noc;
    return (uint64_t(y_start) << 54) | (uint64_t(x_start) << 48) | (uint64_t(y_end) << 42) | (uint64_t(x_end) << 36) |
        addr;
}
namespace zyx_emu_detail {
// Defined in api/tensor/tensor_accessor.h (included below): L1 bank b is worker core b in
// row-major order over the grid.
inline uint64_t l1_interleaved_page_addr(uint32_t base, uint32_t page_id, uint32_t stride, uint32_t offset,
                                         uint8_t noc);
inline uint32_t l1_bank_count();
}  // namespace zyx_emu_detail
template <bool DRAM>
inline uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t bank_address_offset, uint8_t noc = noc_index) {
    if (!DRAM) {
        if (bank_id >= zyx_emu_detail::l1_bank_count())
            ZYX_EMU.kernel_fault("get_noc_addr_from_bank_id<false>: L1 bank id out of range");
        return zyx_emu_detail::l1_interleaved_page_addr(bank_address_offset, bank_id, 0, 0, noc);
    }
    const zyx_emu_device_info* d = ZYX_EMU.device_info();
    if (bank_id >= d->num_dram_banks) ZYX_EMU.kernel_fault("get_noc_addr_from_bank_id: bank id out of range");
    return get_noc_addr(d->dram_bank_x[bank_id], d->dram_bank_y[bank_id], bank_address_offset, noc);
}

// ---- address generators: page id → bank → address (emulator/README.md, "Memory and the NoC") ---
namespace zyx_emu_detail {
inline uint32_t align_up(uint32_t v, uint32_t a) { return (v + a - 1) / a * a; }
inline uint64_t interleaved_page_addr(bool dram, uint32_t base, uint32_t page_id, uint32_t stride, uint32_t offset,
                                      uint8_t noc) {
    if (!dram) return l1_interleaved_page_addr(base, page_id, stride, offset, noc);
    const zyx_emu_device_info* d = ZYX_EMU.device_info();
    uint32_t bank = page_id % d->num_dram_banks;
    uint32_t row = page_id / d->num_dram_banks;
    return get_noc_addr(d->dram_bank_x[bank], d->dram_bank_y[bank], base + row * stride + offset, noc);
}
inline uint32_t tile_bytes_of(DataFormat f) {
    switch (f) {
        case DataFormat::Float32:
        case DataFormat::Int32:
        case DataFormat::UInt32:
        case DataFormat::Tf32: return 4096;
        case DataFormat::Float16:
        case DataFormat::Float16_b:
        case DataFormat::UInt16: return 2048;
        case DataFormat::UInt8:
        case DataFormat::Int8:
        case DataFormat::Lf8: return 1024;
        case DataFormat::Bfp4:
        case DataFormat::Bfp4_b: return 576;
        case DataFormat::Bfp2:
        case DataFormat::Bfp2_b: return 320;
        default: return 1088;
    }
}
}  // namespace zyx_emu_detail

template <bool DRAM>
struct InterleavedAddrGen {
    uint32_t bank_base_address;
    uint32_t page_size;
    uint32_t aligned_page_size() const {
        return zyx_emu_detail::align_up(page_size, DRAM ? ZYX_EMU.device_info()->dram_alignment : L1_ALIGNMENT);
    }
    uint64_t get_noc_addr(uint32_t id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return zyx_emu_detail::interleaved_page_addr(DRAM, bank_base_address, id, aligned_page_size(), offset, noc);
    }
};

// Fast form: the bank stride comes from the data format's tile size, not from page_size
// (page_size is only the transfer size), exactly as tt-metal's MUL_WITH_TILE_SIZE.
template <bool DRAM, uint32_t tile_hw = 1024>
struct InterleavedAddrGenFast {
    uint32_t bank_base_address;
    uint32_t page_size;
    DataFormat data_format;
    uint64_t get_noc_addr(uint32_t id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        return zyx_emu_detail::interleaved_page_addr(DRAM, bank_base_address, id,
                                                     zyx_emu_detail::tile_bytes_of(data_format), offset, noc);
    }
};

template <bool DRAM>
struct InterleavedPow2AddrGenFast {
    uint32_t bank_base_address;
    uint32_t log_base_2_of_page_size;
    uint64_t get_noc_addr(uint32_t id, uint32_t offset = 0, uint8_t noc = noc_index) const {
        uint32_t a = DRAM ? ZYX_EMU.device_info()->dram_alignment : L1_ALIGNMENT;
        uint32_t stride = 1u << log_base_2_of_page_size;
        return zyx_emu_detail::interleaved_page_addr(DRAM, bank_base_address, id, stride < a ? a : stride, offset, noc);
    }
};

#include "api/tensor/tensor_accessor.h"

// Generic page → NoC address for any address generator or TensorAccessor.
template <typename AddrGen>
requires requires(const AddrGen& g) { g.get_noc_addr(0u, 0u, uint8_t(0)); }
inline uint64_t get_noc_addr(uint32_t id, const AddrGen& s, uint32_t offset = 0, uint8_t noc = noc_index) {
    return s.get_noc_addr(id, offset, noc);
}

// ---- reads and writes (asynchronous until the barrier; split into bursts as on silicon) -------
template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true>
inline void noc_async_read(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size, uint8_t noc = noc_index,
                           uint32_t read_req_vc = NOC_UNICAST_WRITE_VC) {
    (void)read_req_vc;
    ZYX_EMU.noc_read(src_noc_addr, dst_local_l1_addr, size, noc);
}
inline void noc_async_read_one_packet(uint64_t src_noc_addr, uint32_t dst_local_l1_addr, uint32_t size,
                                      uint8_t noc = noc_index) {
    if (size > NOC_MAX_BURST_SIZE) ZYX_EMU.kernel_fault("noc_async_read_one_packet: size exceeds one NoC burst");
    ZYX_EMU.noc_read(src_noc_addr, dst_local_l1_addr, size, noc);
}
template <uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, bool posted = false>
inline void noc_async_write(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size, uint8_t noc = noc_index,
                            uint32_t vc = NOC_UNICAST_WRITE_VC) {
    (void)vc;
    ZYX_EMU.noc_write(src_local_l1_addr, dst_noc_addr, size, noc);
}
inline void noc_async_write_one_packet(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint32_t size,
                                       uint8_t noc = noc_index) {
    if (size > NOC_MAX_BURST_SIZE) ZYX_EMU.kernel_fault("noc_async_write_one_packet: size exceeds one NoC burst");
    ZYX_EMU.noc_write(src_local_l1_addr, dst_noc_addr, size, noc);
}
// Multicast to a rectangle; num_dests does not count the sender (it is not written).
inline void noc_async_write_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t size,
                                      uint32_t num_dests, bool linked = false, uint8_t noc = noc_index) {
    (void)linked;
    ZYX_EMU.noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, false, noc);
}
// Multicast that also writes the sender's own L1 (num_dests counts it).
inline void noc_async_write_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                   uint32_t size, uint32_t num_dests, bool linked = false,
                                                   uint8_t noc = noc_index) {
    (void)linked;
    ZYX_EMU.noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, size, num_dests, true, noc);
}

template <typename AddrGen>
inline void noc_async_read_page(uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr, uint32_t offset = 0,
                                uint8_t noc = noc_index) {
    noc_async_read(addrgen.get_noc_addr(id, offset, noc), dst_local_l1_addr, addrgen.page_size - offset, noc);
}
template <typename AddrGen>
inline void noc_async_write_page(uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr, uint32_t size = 0,
                                 uint32_t offset = 0, uint8_t noc = noc_index) {
    noc_async_write(src_local_l1_addr, addrgen.get_noc_addr(id, offset, noc), size ? size : addrgen.page_size, noc);
}
// Deprecated in tt-metal but still everywhere in examples.
template <typename AddrGen>
inline void noc_async_read_tile(uint32_t id, const AddrGen& addrgen, uint32_t dst_local_l1_addr, uint32_t offset = 0,
                                uint8_t noc = noc_index) {
    noc_async_read_page(id, addrgen, dst_local_l1_addr, offset, noc);
}
template <typename AddrGen>
inline void noc_async_write_tile(uint32_t id, const AddrGen& addrgen, uint32_t src_local_l1_addr,
                                 uint8_t noc = noc_index) {
    noc_async_write_page(id, addrgen, src_local_l1_addr, 0, 0, noc);
}

// Barriers cover this processor's own transactions on that NoC.
inline void noc_async_read_barrier(uint8_t noc = noc_index) { ZYX_EMU.noc_read_barrier(noc); }
inline void noc_async_write_barrier(uint8_t noc = noc_index) { ZYX_EMU.noc_write_barrier(noc); }
inline void noc_async_writes_flushed(uint8_t noc = noc_index) { ZYX_EMU.noc_write_barrier(noc); }
inline void noc_async_posted_writes_flushed(uint8_t noc = noc_index) { ZYX_EMU.noc_write_barrier(noc); }
inline void noc_async_atomic_barrier(uint8_t noc = noc_index) { (void)noc; }
inline void noc_async_full_barrier(uint8_t noc = noc_index) {
    ZYX_EMU.noc_read_barrier(noc);
    ZYX_EMU.noc_write_barrier(noc);
}

// ---- semaphores -------------------------------------------------------------------------------
// Core types that run kernels (tt-metal core_config.h, an unscoped enum at global scope). The
// emulator has Tensix cores only.
enum ProgrammableCoreType { TENSIX = 0, ACTIVE_ETH = 1, IDLE_ETH = 2, DRAM = 3, COUNT = 4 };
// L1 address of semaphore semaphore_id on this core; get_semaphore<ProgrammableCoreType::TENSIX>(id)
// is the same call.
template <ProgrammableCoreType type = ProgrammableCoreType::TENSIX>
inline uint32_t get_semaphore(uint32_t semaphore_id) {
    if constexpr (type != ProgrammableCoreType::TENSIX)
        ZYX_EMU.kernel_fault(
            "Unsupported: get_semaphore for a core type other than TENSIX (no Ethernet or DRAM cores)");
    return ZYX_EMU.get_semaphore(semaphore_id);
}
// Waits until *sem_addr == val (the fiber yields while it waits).
inline void noc_semaphore_wait(volatile uint32_t* sem_addr, uint32_t val) {
    ZYX_EMU.noc_semaphore_wait(sem_addr, val, false);
}
// Waits until *sem_addr >= val.
inline void noc_semaphore_wait_min(volatile uint32_t* sem_addr, uint32_t val) {
    ZYX_EMU.noc_semaphore_wait(sem_addr, val, true);
}
inline void noc_semaphore_set(volatile uint32_t* sem_addr, uint32_t val) {
    __atomic_store_n(const_cast<uint32_t*>(sem_addr), val, __ATOMIC_SEQ_CST);
}
// Atomic increment of a (usually remote) semaphore.
inline void noc_semaphore_inc(uint64_t addr, uint32_t incr, uint8_t noc_id = noc_index, uint8_t vc = 0) {
    (void)vc;
    ZYX_EMU.noc_semaphore_inc(addr, incr, noc_id);
}
// Copies the 4-byte semaphore at src_local_l1_addr to dst_noc_addr (a NoC write).
inline void noc_semaphore_set_remote(uint32_t src_local_l1_addr, uint64_t dst_noc_addr, uint8_t noc = noc_index) {
    ZYX_EMU.noc_write(src_local_l1_addr, dst_noc_addr, 4, noc);
}
inline void noc_semaphore_set_multicast(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast, uint32_t num_dests,
                                        bool linked = false, uint8_t noc = noc_index) {
    (void)linked;
    ZYX_EMU.noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, 4, num_dests, false, noc);
}
inline void noc_semaphore_set_multicast_loopback_src(uint32_t src_local_l1_addr, uint64_t dst_noc_addr_multicast,
                                                     uint32_t num_dests, bool linked = false, uint8_t noc = noc_index) {
    (void)linked;
    ZYX_EMU.noc_write_multicast(src_local_l1_addr, dst_noc_addr_multicast, 4, num_dests, true, noc);
}
inline void noc_inline_dw_write(uint64_t addr, uint32_t val, uint8_t be = 0xF, uint8_t noc = noc_index) {
    if (be != 0xF) ZYX_EMU.kernel_fault("Unsupported: noc_inline_dw_write with a partial byte enable");
    ZYX_EMU.noc_inline_dw_write(addr, val, noc);
}
// On silicon: drops the processor's L1 data cache lines, so the next load of an L1 word another
// core writes sees its new value. The idiom `while (*sem != v) invalidate_l1_cache();` polls L1.
// In the emulator it is a yield point: the calling processor steps aside so the others (on this
// worker thread too) run, and a loop that polls for a value nobody writes is reported instead of
// spinning forever. (Encoded as noc_semaphore_wait on a null address, which the table reads as
// "polling L1"; no ABI change.)
inline void invalidate_l1_cache() { ZYX_EMU.noc_semaphore_wait(nullptr, 0, true); }
