// The Device 2.0 object API of tt-metal's kernels: CircularBuffer, Noc, the NoC endpoints
// (TensorAccessor pages, CB pointers, UnicastEndpoint, MulticastEndpoint, AllocatorBank,
// CoreLocalMem). One header behind all of tt-metal's paths (api/dataflow/noc.h,
// api/dataflow/circular_buffer.h, api/dataflow/endpoints.h, api/tensor/noc_traits.h,
// api/core_local_mem.h and the older experimental/… ones), so including any one of them gives
// the whole API. tt-metal docs: "Device 2.0 Data Movement API Migration Guide".
//
// Two generations are accepted (emulator/README.md, "Device 2.0 object API"):
//   ::Noc               — async_read<NocOptions opts, max_page_size, tracing>(src, dst, size,
//                         src_args, dst_args, const NocOptVals& = {}) (api/dataflow/noc.h)
//   experimental::Noc   — async_read<TxnIdMode, max_page_size, tracing>(src, dst, size, src_args,
//                         dst_args, uint32_t vc, uint32_t trid) (experimental/noc.h)
// Every call is a thin inline over the free-function API (dataflow_api.h / the compute API), so
// the emulator's CB protocol, barrier, bounds and alignment checks apply unchanged and name
// the same objects ("cb_push_back(cb 0, 1)", the NoC address …).
//
// noc_traits_t<T> here is the emulator's own: its members are not tt-metal's (a kernel that
// specializes noc_traits_t for its own type does not compile). Each specialization has the
// argument structs of tt-metal (src_args_type, dst_args_type, dst_args_mcast_type) and
//   static uint64_t noc_addr(const T&, uint8_t noc, const src_args_type&)   (dst_args_type the same)
//   static uint32_t l1_src(const T&, const src_args_type&)   (a local source: a CB's read pointer)
//   static uint32_t l1_dst(const T&, const dst_args_type&)   (a local destination: its write pointer)
//   static uint64_t mcast_addr(const T&, uint8_t noc, const dst_args_mcast_type&)
//   static void check_size(const T&, const args&, uint32_t size, const char* what)
// for the roles the type can play. No standard-library include: every kernel compiles this.
#pragma once

#include <cstdint>

#include "zyx_emu/kernel_abi.h"

#if defined(COMPILE_FOR_BRISC) || defined(COMPILE_FOR_NCRISC)
#define ZYX_EMU_DM_KERNEL 1
#include "api/dataflow/dataflow_api.h"
#endif

// ---- CircularBuffer (data movement and compute) ------------------------------------------------
// In a compute kernel reserve_back / push_back act on PACK and wait_front / pop_front on UNPACK,
// as the free functions do (api/compute/compute_kernel_api.h).
class CircularBuffer {
public:
    enum class AddrSelector { WRITE_PTR, READ_PTR };

    explicit CircularBuffer(uint32_t cb_id) : cb_id_(cb_id) {}

    uint32_t get_cb_id() const { return cb_id_; }

    void reserve_back(int32_t num_pages) { ZYX_EMU.cb_reserve_back(int32_t(cb_id_), num_pages); }
    void push_back(int32_t num_pages) { ZYX_EMU.cb_push_back(int32_t(cb_id_), num_pages); }
    void wait_front(int32_t num_pages) { ZYX_EMU.cb_wait_front(int32_t(cb_id_), num_pages); }
    void pop_front(int32_t num_pages) { ZYX_EMU.cb_pop_front(int32_t(cb_id_), num_pages); }

    // Byte addresses in this core's L1.
    uint32_t get_write_ptr() const { return ZYX_EMU.get_write_ptr(int32_t(cb_id_)); }
    uint32_t get_read_ptr() const { return ZYX_EMU.get_read_ptr(int32_t(cb_id_)); }

#ifdef ZYX_EMU_DM_KERNEL
    uint32_t get_tile_size() const { return ::get_tile_size(uint8_t(cb_id_)); }
    uint32_t get_tile_hw() const { return ::get_tile_hw(uint8_t(cb_id_)); }
    DataFormat get_dataformat() const { return ::get_dataformat(uint8_t(cb_id_)); }
    bool pages_reservable_at_back(int32_t num_pages) const {
        return cb_pages_reservable_at_back(int32_t(cb_id_), num_pages);
    }
    bool pages_available_at_front(int32_t num_pages) const {
        return cb_pages_available_at_front(int32_t(cb_id_), num_pages);
    }
#endif

    // A guard with nothing to release (tt-metal records profiler events here).
    struct ScopedLock {};
    [[nodiscard]] ScopedLock scoped_lock() { return {}; }

private:
    uint32_t cb_id_;
};

// ---- CoreLocalMem: typed view of an L1 address (L1 addresses are host pointers here) ------------
template <typename T, typename AddressType = uintptr_t>
class CoreLocalMem {
    using difference_type = __PTRDIFF_TYPE__;

public:
    CoreLocalMem(AddressType address) : address_(address) {}
    CoreLocalMem(T* ptr) : address_(AddressType(reinterpret_cast<uintptr_t>(ptr))) {}

    T* get_unsafe_ptr() const { return reinterpret_cast<T*>(uintptr_t(address_)); }
    AddressType get_address() const { return address_; }
    T& operator[](uint32_t index) const { return get_unsafe_ptr()[index]; }
    T& operator*() const { return *get_unsafe_ptr(); }
    T* operator->() const { return get_unsafe_ptr(); }

    CoreLocalMem& operator+=(difference_type n) {
        address_ += n * sizeof(T);
        return *this;
    }
    CoreLocalMem& operator-=(difference_type n) {
        address_ -= n * sizeof(T);
        return *this;
    }
    CoreLocalMem& operator++() {
        address_ += sizeof(T);
        return *this;
    }
    CoreLocalMem& operator--() {
        address_ -= sizeof(T);
        return *this;
    }
    CoreLocalMem operator++(int) {
        CoreLocalMem t = *this;
        address_ += sizeof(T);
        return t;
    }
    CoreLocalMem operator--(int) {
        CoreLocalMem t = *this;
        address_ -= sizeof(T);
        return t;
    }
    CoreLocalMem operator+(difference_type n) const { return CoreLocalMem(AddressType(address_ + n * sizeof(T))); }
    CoreLocalMem operator-(difference_type n) const { return CoreLocalMem(AddressType(address_ - n * sizeof(T))); }
    difference_type operator-(const CoreLocalMem& o) const {
        return (difference_type(address_) - difference_type(o.address_)) / difference_type(sizeof(T));
    }

    struct ScopedLock {};
    [[nodiscard]] ScopedLock scoped_lock(uint32_t num_elements = 0) {
        (void)num_elements;
        return {};
    }

    bool operator==(const CoreLocalMem& o) const { return address_ == o.address_; }
    bool operator!=(const CoreLocalMem& o) const { return address_ != o.address_; }
    bool operator<(const CoreLocalMem& o) const { return address_ < o.address_; }
    bool operator<=(const CoreLocalMem& o) const { return address_ <= o.address_; }
    bool operator>(const CoreLocalMem& o) const { return address_ > o.address_; }
    bool operator>=(const CoreLocalMem& o) const { return address_ >= o.address_; }
    explicit operator bool() const { return address_ != 0; }

private:
    AddressType address_;
};

#ifdef ZYX_EMU_DM_KERNEL

// ---- NoC options (api/dataflow/noc.h) ----------------------------------------------------------
enum class NocOptions : uint32_t {
    DEFAULT = 0,
    TXN_ID = 1u << 0,
    POSTED = 1u << 1,
    CUSTOM_VC = 1u << 2,
    MCAST_INCL_SRC = 1u << 3,
    INLINE_L1 = 1u << 4,
    INLINE_REG = 1u << 5,
};
constexpr NocOptions operator|(NocOptions a, NocOptions b) noexcept { return NocOptions(uint32_t(a) | uint32_t(b)); }
constexpr bool has_flag(NocOptions opts, NocOptions flag) noexcept { return (uint32_t(opts) & uint32_t(flag)) != 0; }

// vc is read with CUSTOM_VC, trid with TXN_ID (both accepted and ignored: one VC, and a
// transaction-id barrier waits for all of the processor's transactions on that NoC).
struct NocOptVals {
    uint32_t vc = NOC_UNICAST_WRITE_VC;
    uint32_t trid = 0;
};

template <typename T>
struct noc_traits_t {
    static_assert(sizeof(T) == 0, "NoC transactions are not supported for this type");
};

// The DataflowBuffer argument struct (the buffer itself is Metal 2.0, not provided).
struct DataflowBufferArgs {
    uint32_t offset_bytes{};
};

namespace zyx_emu_detail {
template <typename T>
using noc_src_args_t = typename ::noc_traits_t<T>::src_args_type;
template <typename T>
using noc_dst_args_t = typename ::noc_traits_t<T>::dst_args_type;
template <typename T>
using noc_dst_args_mcast_t = typename ::noc_traits_t<T>::dst_args_mcast_type;

// What both Noc generations do, on NoC `noc`.
struct NocOps {
    uint8_t noc_id_;

    template <typename Src, typename Dst>
    void read(const Src& src, const Dst& dst, uint32_t size, const noc_src_args_t<Src>& sa,
              const noc_dst_args_t<Dst>& da) const {
        ::noc_traits_t<Src>::check_size(src, sa, size,
                                        "Noc::async_read: offset_bytes + size_bytes run past the source page");
        ::noc_traits_t<Dst>::check_size(dst, da, size,
                                        "Noc::async_read: offset_bytes + size_bytes run past the destination page");
        ::noc_async_read(::noc_traits_t<Src>::noc_addr(src, noc_id_, sa), ::noc_traits_t<Dst>::l1_dst(dst, da), size,
                         noc_id_);
    }
    template <typename Src, typename Dst>
    void write(const Src& src, const Dst& dst, uint32_t size, const noc_src_args_t<Src>& sa,
               const noc_dst_args_t<Dst>& da) const {
        ::noc_traits_t<Src>::check_size(src, sa, size,
                                        "Noc::async_write: offset_bytes + size_bytes run past the source page");
        ::noc_traits_t<Dst>::check_size(dst, da, size,
                                        "Noc::async_write: offset_bytes + size_bytes run past the destination page");
        ::noc_async_write(::noc_traits_t<Src>::l1_src(src, sa), ::noc_traits_t<Dst>::noc_addr(dst, noc_id_, da), size,
                          noc_id_);
    }
    template <typename Src, typename Dst>
    void mcast(const Src& src, const Dst& dst, uint32_t size, uint32_t num_dsts, const noc_src_args_t<Src>& sa,
               const noc_dst_args_mcast_t<Dst>& da, bool linked, bool loopback) const {
        const uint32_t s = ::noc_traits_t<Src>::l1_src(src, sa);
        const uint64_t d = ::noc_traits_t<Dst>::mcast_addr(dst, noc_id_, da);
        if (loopback)
            ::noc_async_write_multicast_loopback_src(s, d, size, num_dsts, linked, noc_id_);
        else
            ::noc_async_write_multicast(s, d, size, num_dsts, linked, noc_id_);
    }
    template <typename Dst>
    void inline_dw(const Dst& dst, uint32_t val, const noc_dst_args_t<Dst>& da, uint8_t be) const {
        ::noc_inline_dw_write(::noc_traits_t<Dst>::noc_addr(dst, noc_id_, da), val, be, noc_id_);
    }
    bool is_local_bank(uint32_t x, uint32_t y) const { return x == my_x[noc_id_] && y == my_y[noc_id_]; }
    bool is_local_addr(uint64_t noc_addr) const {
        return is_local_bank(uint32_t(noc_addr >> 36) & 0x3f, uint32_t(noc_addr >> 42) & 0x3f);
    }
};

// Endpoints without page semantics check nothing.
struct NoSizeCheck {
    template <typename T, typename A>
    static void check_size(const T&, const A&, uint32_t, const char*) {}
};
}  // namespace zyx_emu_detail

// ---- Noc (api/dataflow/noc.h) ------------------------------------------------------------------
// Noc() uses the kernel's NoC (noc_index), Noc(1) the other one. The *_with_state forms do a
// whole transfer (the state is not modelled); TXN_ID barriers wait for all transactions.
class Noc : private zyx_emu_detail::NocOps {
    template <typename T>
    using src_args_t = zyx_emu_detail::noc_src_args_t<T>;
    template <typename T>
    using dst_args_t = zyx_emu_detail::noc_dst_args_t<T>;
    template <typename T>
    using dst_args_mcast_t = zyx_emu_detail::noc_dst_args_mcast_t<T>;

public:
    enum class AddressType { NOC, LOCAL_L1 };
    static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

    Noc() : NocOps{uint8_t(noc_index)} {}
    explicit Noc(uint8_t noc_id) : NocOps{noc_id} {}

    uint8_t get_noc_id() const { return noc_id_; }
    using NocOps::is_local_addr;
    using NocOps::is_local_bank;

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        read(src, dst, size_bytes, src_args, dst_args);
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src>
    void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              const NocOptVals& noc_opts = {}) const {
        (void)src, (void)size_bytes, (void)src_args, (void)noc_opts;
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst>
    void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                               const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        read(src, dst, size_bytes, src_args, dst_args);
    }

    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        write(src, dst, size_bytes, src_args, dst_args);
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "Mcasts with transaction id are not supported");
        static_assert(!has_flag(opts, NocOptions::POSTED), "Mcasts with posted transactions are not supported");
        mcast(src, dst, size_bytes, num_dsts, src_args, dst_args, linked, has_flag(opts, NocOptions::MCAST_INCL_SRC));
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Dst>
    void set_async_write_state(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                               const NocOptVals& noc_opts = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID),
                      "NocOptions::TXN_ID is not supported for set_async_write_state");
        (void)dst, (void)size_bytes, (void)dst_args, (void)noc_opts;
    }
    template <NocOptions opts = NocOptions::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, typename Src,
              typename Dst>
    void async_write_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                                const dst_args_t<Dst>& dst_args, const NocOptVals& noc_opts = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID),
                      "NocOptions::TXN_ID is not supported for async_write_with_state");
        (void)noc_opts;
        write(src, dst, size_bytes, src_args, dst_args);
    }
    template <NocOptions opts = NocOptions::DEFAULT, typename Dst>
    void inline_dw_write(const Dst& dst, uint32_t val, const dst_args_t<Dst>& dst_args, uint8_t be = 0xF,
                         const NocOptVals& noc_opts = {}) const {
        static_assert(!has_flag(opts, NocOptions::TXN_ID), "TxnId is not supported for inline_dw_write");
        (void)noc_opts;
        inline_dw(dst, val, dst_args, be);
    }

    template <NocOptions opts = NocOptions::DEFAULT>
    void async_read_barrier(const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        ::noc_async_read_barrier(noc_id_);
    }
    template <NocOptions opts = NocOptions::DEFAULT>
    void async_write_barrier(const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        ::noc_async_write_barrier(noc_id_);
    }
    template <NocOptions opts = NocOptions::DEFAULT>
    void async_writes_flushed(const NocOptVals& noc_opts = {}) const {
        (void)noc_opts;
        ::noc_async_writes_flushed(noc_id_);
    }
    void async_atomic_barrier() const { ::noc_async_atomic_barrier(noc_id_); }
    void async_full_barrier() const { ::noc_async_full_barrier(noc_id_); }
};

// ---- endpoints (api/dataflow/endpoints.h) ------------------------------------------------------
struct UnicastEndpoint {
    uint64_t get_noc_unicast_addr(uint32_t noc_x, uint32_t noc_y, uint32_t addr, uint8_t noc) const {
        return ::get_noc_addr(noc_x, noc_y, addr, noc);
    }
};
struct MulticastEndpoint {
    uint64_t get_noc_multicast_addr(uint32_t noc_x_start, uint32_t noc_y_start, uint32_t noc_x_end, uint32_t noc_y_end,
                                    uint32_t addr, uint8_t noc) const {
        return ::get_noc_multicast_addr(noc_x_start, noc_y_start, noc_x_end, noc_y_end, addr, noc);
    }
};
enum class AllocatorBankType { L1, DRAM };
template <AllocatorBankType bank_type>
struct AllocatorBank {
    uint64_t get_noc_addr_from_bank_id(uint32_t bank_id, uint32_t addr, uint8_t noc) const {
        return ::get_noc_addr_from_bank_id<bank_type == AllocatorBankType::DRAM>(bank_id, addr, noc);
    }
};

// UnicastEndpoint {.noc_x, .noc_y, .addr}: as a local L1 end only .addr counts.
template <>
struct noc_traits_t<UnicastEndpoint> : zyx_emu_detail::NoSizeCheck {
    struct src_args_type {
        uint32_t noc_x{};
        uint32_t noc_y{};
        uint32_t addr{};
    };
    using dst_args_type = src_args_type;
    static uint64_t noc_addr(const UnicastEndpoint& e, uint8_t noc, const src_args_type& a) {
        return e.get_noc_unicast_addr(a.noc_x, a.noc_y, a.addr, noc);
    }
    static uint32_t l1_src(const UnicastEndpoint&, const src_args_type& a) { return a.addr; }
    static uint32_t l1_dst(const UnicastEndpoint&, const dst_args_type& a) { return a.addr; }
};
template <>
struct noc_traits_t<MulticastEndpoint> : zyx_emu_detail::NoSizeCheck {
    struct dst_args_mcast_type {
        uint32_t noc_x_start{};
        uint32_t noc_y_start{};
        uint32_t noc_x_end{};
        uint32_t noc_y_end{};
        uint32_t addr{};
    };
    static uint64_t mcast_addr(const MulticastEndpoint& e, uint8_t noc, const dst_args_mcast_type& a) {
        return e.get_noc_multicast_addr(a.noc_x_start, a.noc_y_start, a.noc_x_end, a.noc_y_end, a.addr, noc);
    }
};
// AllocatorBank {.bank_id, .addr}: a NoC end only.
template <AllocatorBankType bank_type>
struct noc_traits_t<AllocatorBank<bank_type>> : zyx_emu_detail::NoSizeCheck {
    struct src_args_type {
        uint32_t bank_id{};
        uint32_t addr{};
    };
    using dst_args_type = src_args_type;
    static uint64_t noc_addr(const AllocatorBank<bank_type>& b, uint8_t noc, const src_args_type& a) {
        return b.get_noc_addr_from_bank_id(a.bank_id, a.addr, noc);
    }
};

// ---- TensorAccessor pages (api/tensor/noc_traits.h): {.page_id, .offset_bytes = 0} ----------------
// A transfer must stay inside its page (offset_bytes + size_bytes <= the aligned page size): the
// next bytes of the bank belong to another page.
template <typename Args>
struct noc_traits_t<TensorAccessor<Args>> {
    struct src_args_type {
        uint32_t page_id{};
        uint32_t offset_bytes = 0;
    };
    using dst_args_type = src_args_type;
    static uint64_t noc_addr(const TensorAccessor<Args>& t, uint8_t noc, const src_args_type& a) {
        return t.get_noc_addr(a.page_id, a.offset_bytes, noc);
    }
    static void check_size(const TensorAccessor<Args>& t, const src_args_type& a, uint32_t size, const char* what) {
        if (uint64_t(a.offset_bytes) + size > t.get_aligned_page_size()) ZYX_EMU.kernel_fault(what);
    }
};

// ---- CircularBuffer ends (api/dataflow/circular_buffer.h): {.offset_bytes} -----------------------
// As a source a CB is read at its read pointer, as a destination written at its write pointer;
// use<CircularBuffer::AddrSelector::…>(cb) picks the pointer explicitly.
template <CircularBuffer::AddrSelector AddrSel>
struct CircularBufferView {
    const CircularBuffer& cb;
    explicit constexpr CircularBufferView(const CircularBuffer& c) : cb(c) {}
};
template <CircularBuffer::AddrSelector AddrSel>
constexpr CircularBufferView<AddrSel> use(const CircularBuffer& cb) {
    return CircularBufferView<AddrSel>(cb);
}

namespace zyx_emu_detail {
struct CbArgs {
    struct src_args_type {
        uint32_t offset_bytes{};
    };
    using dst_args_type = src_args_type;
    struct dst_args_mcast_type {
        uint32_t noc_x_start{};
        uint32_t noc_y_start{};
        uint32_t noc_x_end{};
        uint32_t noc_y_end{};
        uint32_t offset_bytes{};
    };
    static uint64_t mcast_at(uint32_t local, uint8_t noc, const dst_args_mcast_type& a) {
        return ::get_noc_multicast_addr(a.noc_x_start, a.noc_y_start, a.noc_x_end, a.noc_y_end, local + a.offset_bytes,
                                        noc);
    }
};
}  // namespace zyx_emu_detail

template <>
struct noc_traits_t<CircularBuffer> : zyx_emu_detail::CbArgs, zyx_emu_detail::NoSizeCheck {
    static uint32_t l1_src(const CircularBuffer& cb, const src_args_type& a) {
        return cb.get_read_ptr() + a.offset_bytes;
    }
    static uint32_t l1_dst(const CircularBuffer& cb, const dst_args_type& a) {
        return cb.get_write_ptr() + a.offset_bytes;
    }
    static uint64_t mcast_addr(const CircularBuffer& cb, uint8_t noc, const dst_args_mcast_type& a) {
        return mcast_at(cb.get_write_ptr(), noc, a);
    }
};

template <CircularBuffer::AddrSelector AddrSel>
struct noc_traits_t<CircularBufferView<AddrSel>> : zyx_emu_detail::CbArgs, zyx_emu_detail::NoSizeCheck {
    static uint32_t ptr(const CircularBufferView<AddrSel>& v) {
        return AddrSel == CircularBuffer::AddrSelector::READ_PTR ? v.cb.get_read_ptr() : v.cb.get_write_ptr();
    }
    static uint32_t l1_src(const CircularBufferView<AddrSel>& v, const src_args_type& a) {
        return ptr(v) + a.offset_bytes;
    }
    static uint32_t l1_dst(const CircularBufferView<AddrSel>& v, const dst_args_type& a) {
        return ptr(v) + a.offset_bytes;
    }
    static uint64_t mcast_addr(const CircularBufferView<AddrSel>& v, uint8_t noc, const dst_args_mcast_type& a) {
        return mcast_at(ptr(v), noc, a);
    }
};

// CoreLocalMem {.offset_bytes = 0}: a local L1 end only.
template <typename T, typename AddressType>
struct noc_traits_t<CoreLocalMem<T, AddressType>> : zyx_emu_detail::NoSizeCheck {
    struct src_args_type {
        AddressType offset_bytes = 0;
    };
    using dst_args_type = src_args_type;
    struct dst_args_mcast_type {};
    static uint32_t l1_src(const CoreLocalMem<T, AddressType>& m, const src_args_type& a) {
        return uint32_t(m.get_address() + a.offset_bytes);
    }
    static uint32_t l1_dst(const CoreLocalMem<T, AddressType>& m, const dst_args_type& a) { return l1_src(m, a); }
};

// ---- the older generation (experimental/noc.h, experimental/circular_buffer.h …) ---------------
namespace experimental {
using ::AllocatorBank;
using ::AllocatorBankType;
using ::CircularBuffer;
using ::CircularBufferView;
using ::CoreLocalMem;
using ::MulticastEndpoint;
using ::noc_traits_t;
using ::UnicastEndpoint;
using ::use;

// Template enums instead of NocOptions, vc and trid as trailing arguments.
class Noc : private zyx_emu_detail::NocOps {
    template <typename T>
    using src_args_t = zyx_emu_detail::noc_src_args_t<T>;
    template <typename T>
    using dst_args_t = zyx_emu_detail::noc_dst_args_t<T>;
    template <typename T>
    using dst_args_mcast_t = zyx_emu_detail::noc_dst_args_mcast_t<T>;

public:
    enum class AddressType { NOC, LOCAL_L1 };
    enum class TxnIdMode { ENABLED, DISABLED };
    enum class ResponseMode { NON_POSTED, POSTED };
    enum class BarrierMode { TXN_ID, FULL };
    enum class McastMode { INCLUDE_SRC, EXCLUDE_SRC };
    enum class VcSelection { DEFAULT, CUSTOM };
    static constexpr uint32_t INVALID_TXN_ID = 0xFFFFFFFF;

    Noc() : NocOps{uint8_t(noc_index)} {}
    explicit Noc(uint8_t noc_id) : NocOps{noc_id} {}

    uint8_t get_noc_id() const { return noc_id_; }
    using NocOps::is_local_addr;
    using NocOps::is_local_bank;

    template <TxnIdMode txn_id_mode = TxnIdMode::DISABLED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_read(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                    const dst_args_t<Dst>& dst_args, uint32_t read_req_vc = NOC_UNICAST_WRITE_VC,
                    uint32_t trid = INVALID_TXN_ID) const {
        (void)read_req_vc, (void)trid;
        read(src, dst, size_bytes, src_args, dst_args);
    }
    template <VcSelection vc_selection = VcSelection::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Src>
    void set_async_read_state(const Src& src, uint32_t size_bytes, const src_args_t<Src>& src_args,
                              uint8_t vc = 0) const {
        (void)src, (void)size_bytes, (void)src_args, (void)vc;
    }
    template <VcSelection vc_selection = VcSelection::DEFAULT, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Src, typename Dst>
    void async_read_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                               const dst_args_t<Dst>& dst_args, uint8_t vc = 0) const {
        (void)vc;
        read(src, dst, size_bytes, src_args, dst_args);
    }
    template <TxnIdMode txn_id_mode = TxnIdMode::DISABLED, ResponseMode response_mode = ResponseMode::NON_POSTED,
              uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1, bool enable_noc_tracing = true, typename Src,
              typename Dst>
    void async_write(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                     const dst_args_t<Dst>& dst_args, uint32_t vc = NOC_UNICAST_WRITE_VC,
                     uint32_t trid = INVALID_TXN_ID) const {
        (void)vc, (void)trid;
        write(src, dst, size_bytes, src_args, dst_args);
    }
    template <McastMode mcast_mode = McastMode::EXCLUDE_SRC, TxnIdMode txn_id_mode = TxnIdMode::DISABLED,
              ResponseMode response_mode = ResponseMode::NON_POSTED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              bool enable_noc_tracing = true, typename Src, typename Dst>
    void async_write_multicast(const Src& src, const Dst& dst, uint32_t size_bytes, uint32_t num_dsts,
                               const src_args_t<Src>& src_args, const dst_args_mcast_t<Dst>& dst_args,
                               bool linked = false, uint32_t trid = INVALID_TXN_ID) const {
        static_assert(txn_id_mode == TxnIdMode::DISABLED, "Mcasts with transaction id are not supported");
        static_assert(response_mode == ResponseMode::NON_POSTED, "Mcasts with posted transactions are not supported");
        (void)trid;
        mcast(src, dst, size_bytes, num_dsts, src_args, dst_args, linked, mcast_mode == McastMode::INCLUDE_SRC);
    }
    template <ResponseMode response_mode = ResponseMode::NON_POSTED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Dst>
    void set_async_write_state(const Dst& dst, uint32_t size_bytes, const dst_args_t<Dst>& dst_args,
                               uint8_t vc = NOC_UNICAST_WRITE_VC) const {
        (void)dst, (void)size_bytes, (void)dst_args, (void)vc;
    }
    template <ResponseMode response_mode = ResponseMode::NON_POSTED, uint32_t max_page_size = NOC_MAX_BURST_SIZE + 1,
              typename Src, typename Dst>
    void async_write_with_state(const Src& src, const Dst& dst, uint32_t size_bytes, const src_args_t<Src>& src_args,
                                const dst_args_t<Dst>& dst_args, uint8_t vc = NOC_UNICAST_WRITE_VC) const {
        (void)vc;
        write(src, dst, size_bytes, src_args, dst_args);
    }
    template <TxnIdMode txn_id_mode = TxnIdMode::DISABLED, typename Dst>
    void inline_dw_write(const Dst& dst, uint32_t val, const dst_args_t<Dst>& dst_args, uint8_t be = 0xF,
                         uint32_t vc = NOC_UNICAST_WRITE_VC, uint32_t trid = INVALID_TXN_ID) const {
        static_assert(txn_id_mode == TxnIdMode::DISABLED, "TxnId is not supported for inline_dw_write");
        (void)vc, (void)trid;
        inline_dw(dst, val, dst_args, be);
    }
    template <BarrierMode barrier_type = BarrierMode::FULL>
    void async_read_barrier(uint32_t trid = INVALID_TXN_ID) const {
        (void)trid;
        ::noc_async_read_barrier(noc_id_);
    }
    template <BarrierMode barrier_type = BarrierMode::FULL>
    void async_write_barrier(uint32_t trid = INVALID_TXN_ID) const {
        (void)trid;
        ::noc_async_write_barrier(noc_id_);
    }
    template <ResponseMode response_mode = ResponseMode::NON_POSTED, BarrierMode barrier_type = BarrierMode::FULL>
    void async_writes_flushed(uint32_t trid = INVALID_TXN_ID) const {
        (void)trid;
        ::noc_async_writes_flushed(noc_id_);
    }
    void async_atomic_barrier() const { ::noc_async_atomic_barrier(noc_id_); }
    void async_full_barrier() const { ::noc_async_full_barrier(noc_id_); }
};
}  // namespace experimental

#endif  // ZYX_EMU_DM_KERNEL
