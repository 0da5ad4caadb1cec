// The one contract between a compiled kernel (.so) and the emulator: a table of function
// pointers. The emulator dlopen()s a kernel, calls its zyx_emu_kernel_bind(&table) once, then
// runs zyx_emu_kernel_entry() on a fiber per processor. Every kernel API call (CB ops, NoC,
// tile ops, DPRINT) goes through this table; the emulator finds the calling core and processor
// from the fiber that is running. Kernels therefore need no symbol from the host process.
//
// Bump ZYX_EMU_ABI_VERSION when the table changes; the headers' content is also part of every
// kernel's cache key, so stale kernels are rebuilt.
#pragma once

#include <cstdint>

#define ZYX_EMU_ABI_VERSION 9

// Role of the running processor, for UNPACK()/MATH()/PACK() and the compute API.
#define ZYX_EMU_ROLE_BRISC 0
#define ZYX_EMU_ROLE_NCRISC 1
#define ZYX_EMU_ROLE_UNPACK 2
#define ZYX_EMU_ROLE_MATH 3
#define ZYX_EMU_ROLE_PACK 4

// FPU operations (unpack CB tiles into SrcA/SrcB, then math into DST).
#define ZYX_EMU_FPU_COPY 0       // copy_tile: SrcA → DST; flags 1: a Float32 CB read as TF32 (through SrcA)
#define ZYX_EMU_FPU_ELTWISE 1    // add/sub/mul_tiles and bcast forms; flags = op | bcast << 4
#define ZYX_EMU_FPU_MATMUL 2     // matmul_tiles; flags = transpose, ~0u: the init's, 0x100 | t: matmul_block's t
#define ZYX_EMU_FPU_REDUCE 3     // reduce_tile; flags = pool | dim << 4
#define ZYX_EMU_FPU_TRANSPOSE 4  // transpose_wh_tile
#define ZYX_EMU_FPU_TILIZE 5     // tilize_block: tile_a = tile column of a row-major block, flags = its width in tiles
// binary_dest_reuse_tiles: DST[idst] moves to SrcA (reuse 1) or SrcB (reuse 2), the CB tile to the
// other source; DST[idst] = SrcA op SrcB. flags = op | reuse << 4
#define ZYX_EMU_FPU_DEST_REUSE 6
#define ZYX_EMU_FPU_UNARY_BCAST 7  // unary_bcast: DST = the CB tile broadcast; flags = bcast (0 none … 3 scalar)
#define ZYX_EMU_FPU_COUNT 8
// pack_config settings (`what`), each a packer mode of PACK:
// ZYX_EMU_PACK_RELU_CONFIG: value = pack_relu_config's config word (bits 3:0 the ReluType, bits
// 31:16 the threshold as 16-bit float bits); ZYX_EMU_PACK_L1_ACC: value = pack_reconfig_l1_acc's flag.
#define ZYX_EMU_PACK_RELU_CONFIG 0u
#define ZYX_EMU_PACK_L1_ACC 1u
// ZYX_EMU_FPU_ELTWISE flags bits 8..12: the row of B a ROW broadcast repeats (bcast_row_idx).
#define ZYX_EMU_ELT_ROW_SHIFT 8
// fpu_init flag: the init configures formats (and the packer) only, not an FPU operation
// (compute_kernel_hw_startup, binary_op_init_common, pack_untilize_dest_init).
#define ZYX_EMU_INIT_HW_ONLY 0x10000u
// fpu_init flag: the init also configures the unpackers' data formats from its input CBs and the
// packer's from its output CB (tt-metal's llk_unpack_hw_configure / llk_pack_hw_configure).
#define ZYX_EMU_INIT_HW_CONFIG 0x20000u

// DPRINT item kinds.
#define ZYX_EMU_DPRINT_STR 0  // value = const char*
#define ZYX_EMU_DPRINT_I64 1
#define ZYX_EMU_DPRINT_U64 2
#define ZYX_EMU_DPRINT_F32 3  // value = f32 bits
#define ZYX_EMU_DPRINT_F64 4  // value = f64 bits
#define ZYX_EMU_DPRINT_CHAR 5
#define ZYX_EMU_DPRINT_ENDL 6
#define ZYX_EMU_DPRINT_HEX 7
#define ZYX_EMU_DPRINT_DEC 8
#define ZYX_EMU_DPRINT_SETW 9  // value = width
#define ZYX_EMU_DPRINT_SETPRECISION 10
#define ZYX_EMU_DPRINT_FIXED 11
#define ZYX_EMU_DPRINT_DEFAULTFLOAT 12
#define ZYX_EMU_DPRINT_BF16 13  // value = bfloat16 bits, printed as a float
#define ZYX_EMU_DPRINT_OCT 14
#define ZYX_EMU_DPRINT_BOOL 15       // format form only ("true" / "false")
#define ZYX_EMU_DPRINT_FORMAT 16     // value = const zyx_emu_dprint_format*: a DEVICE_PRINT call
#define ZYX_EMU_DPRINT_TILESLICE 17  // value = const zyx_emu_dprint_tile_slice*

// DPRINT << TileSlice(…): elements [h0:h1:hs, w0:w1:ws] of tile `tile` of CB `cb`, counted from
// the CB's read pointer (ptr 0), its write pointer (ptr 1) or the processor's own (ptr 2: UNPACK
// reads, PACK writes). At most max_bytes of data are printed, as tt-metal's print buffer holds.
struct zyx_emu_dprint_tile_slice {
    uint32_t cb;
    int32_t tile;
    uint16_t h0, h1, hs, w0, w1, ws;
    uint32_t max_bytes;
    uint8_t ptr;
    bool endl_rows, untilized;
};

// A DEVICE_PRINT call: an fmt-style format string and its arguments (kind = ZYX_EMU_DPRINT_*).
struct zyx_emu_dprint_arg {
    uint32_t kind;
    uint64_t value;
};
struct zyx_emu_dprint_format {
    const char* format;
    uint32_t num_args;
    const zyx_emu_dprint_arg* args;
};

// Device facts a kernel's address generators need, constant for a launch.
struct zyx_emu_device_info {
    uint32_t arch;  // 0 Wormhole, 1 Blackhole
    uint32_t num_dram_banks;
    uint32_t dram_alignment;
    uint32_t l1_alignment;
    uint32_t noc_max_burst;
    uint32_t num_cbs;
    uint8_t dram_bank_x[64], dram_bank_y[64];  // NoC coordinates of each DRAM bank
};

struct zyx_emu_api {
    uint32_t abi_version;
    uint32_t table_size;  // sizeof(zyx_emu_api) the emulator was built with

    // ---- identity and arguments ----
    int (*role)();
    const zyx_emu_device_info* (*device_info)();
    uint8_t (*noc_index)();
    const uint8_t* (*my_x)();  // [2] NoC x of this core per NoC
    const uint8_t* (*my_y)();
    uint32_t (*logical_x)();
    uint32_t (*logical_y)();
    uint32_t (*arg_addr)(int idx);  // L1 address of runtime arg idx (checked)
    uint32_t (*common_arg_addr)(int idx);
    uint32_t (*get_semaphore)(uint32_t id);  // L1 address of semaphore id (checked)

    // ---- circular buffers (dataflow and compute; compute calls act on their role only) ----
    void (*cb_reserve_back)(int32_t cb, int32_t n);
    void (*cb_push_back)(int32_t cb, int32_t n);
    void (*cb_wait_front)(int32_t cb, int32_t n);
    void (*cb_pop_front)(int32_t cb, int32_t n);
    uint32_t (*get_write_ptr)(int32_t cb);
    uint32_t (*get_read_ptr)(int32_t cb);
    bool (*cb_pages_reservable_at_back)(int32_t cb, int32_t n);
    bool (*cb_pages_available_at_front)(int32_t cb, int32_t n);
    uint32_t (*cb_tile_size)(int32_t cb);
    uint32_t (*cb_data_format)(int32_t cb);

    // ---- NoC ----
    void (*noc_read)(uint64_t src_noc_addr, uint32_t dst_l1, uint32_t size, uint8_t noc);
    void (*noc_write)(uint32_t src_l1, uint64_t dst_noc_addr, uint32_t size, uint8_t noc);
    // dst_mcast encodes the rectangle as get_noc_multicast_addr does.
    void (*noc_write_multicast)(uint32_t src_l1, uint64_t dst_mcast, uint32_t size, uint32_t num_dests, bool loopback,
                                uint8_t noc);
    void (*noc_read_barrier)(uint8_t noc);
    void (*noc_write_barrier)(uint8_t noc);
    void (*noc_semaphore_inc)(uint64_t dst_noc_addr, uint32_t incr, uint8_t noc);
    void (*noc_semaphore_wait)(const volatile uint32_t* addr, uint32_t val, bool at_least);
    void (*noc_inline_dw_write)(uint64_t dst_noc_addr, uint32_t val, uint8_t noc);
    void (*kernel_fault)(const char* what);  // a header-side check failed (e.g. unsupported use)

    // ---- DPRINT ----
    void (*dprint)(uint32_t kind, uint64_t value);

    // ---- compute ----
    void (*tile_regs_acquire)();
    void (*tile_regs_commit)();
    void (*tile_regs_wait)();
    void (*tile_regs_release)();
    // op = ZYX_EMU_FPU_*; cb_out is the output CB of a full init (or -1)
    void (*fpu_init)(uint32_t op, uint32_t cb_a, uint32_t cb_b, int32_t cb_out, uint32_t flags, bool acc_to_dest);
    void (*fpu_op)(uint32_t op, uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst,
                   uint32_t flags);
    void (*sfpu_init)(uint32_t op);
    void (*sfpu_unary)(uint32_t op, uint32_t idst, uint32_t param);
    void (*sfpu_binary)(uint32_t op, uint32_t idst_a, uint32_t idst_b, uint32_t odst);
    void (*sfpu_fill)(uint32_t idst, uint32_t bits, bool is_float);
    void (*sfpu_typecast)(uint32_t idst, uint32_t in_fmt, uint32_t out_fmt);
    void (*pack_tile)(uint32_t idst, uint32_t cb, uint32_t out_index, bool out_of_order);
    void (*pack_reconfig)(uint32_t cb);
    // The unpackers' formats become those of cb_a (SrcA) and cb_b (SrcB); ~0u: unchanged.
    void (*reconfig_unpack)(uint32_t cb_a, uint32_t cb_b);
    // where_tile<fmt>: DST[odst] = DST[idst0] != 0 ? DST[idst1] : DST[idst2]; fmt a tt::DataFormat code
    void (*sfpu_where)(uint32_t idst0, uint32_t idst1, uint32_t idst2, uint32_t odst, uint32_t fmt);
    // sfpu_reduce<pool, fmt, dim>: pool = PoolType (SUM 0, AVG 1, MAX 2, MIN 3), dim = ReduceDim
    void (*sfpu_reduce)(uint32_t idst, uint32_t pool, uint32_t dim, uint32_t fmt);
    // transpose_wh_dest<is_32bit> / transpose_dest<is_32bit>: DST[idst] transposed in place
    void (*transpose_dest)(uint32_t idst, bool is_32bit);
    // copy_dest_values<fmt>: DST[odst] = DST[idst], bit for bit
    void (*copy_dest)(uint32_t idst, uint32_t odst);
    // integer SFPU binary ops (add_int_tile<fmt> … fmod_int32_tile): DST[odst] = DST[idst0] op
    // DST[idst1]; op = zyx::emu::tile::SfpuBinaryInt, fmt a tt::DataFormat code
    void (*sfpu_binary_int)(uint32_t op, uint32_t fmt, uint32_t idst0, uint32_t idst1, uint32_t odst);
    // untilize_block / pack_untilize_block / pack_untilize_dest: DST[idst] (PACK's section) written
    // as 32 row-major rows into a block of `full_ct_dim` pages of cb (rows full_ct_dim·32 datums
    // long), at tile column `col`. The block starts at reserved page `page`, counted from the first
    // reserved page (`sequential` false) or from the pages packed since the last cb_push_back
    // (`sequential` true; the column full_ct_dim − 1 then counts the block's pages as packed).
    void (*pack_rows)(uint32_t idst, uint32_t cb, uint32_t page, uint32_t full_ct_dim, uint32_t col, bool sequential);
    // A packer setting (what = ZYX_EMU_PACK_*) of the calling processor's configuration (ABI 8).
    void (*pack_config)(uint32_t what, uint32_t value);
    // matmul_block (ABI 9): DST[idst + r·ct + c] += in0[tile_a + r·kt] · in1[tile_b + c] for r < rt,
    // c < ct, in that order; flags 0x100 | transpose (as fpu_op's MATMUL). One call, so the rt + ct
    // tiles are read once.
    void (*fpu_matmul_block)(uint32_t cb_a, uint32_t cb_b, uint32_t tile_a, uint32_t tile_b, uint32_t idst,
                             uint32_t flags, uint32_t ct, uint32_t rt, uint32_t kt);
};

// The table pointer every kernel .so carries (set once by zyx_emu_kernel_bind, read-only after).
inline const zyx_emu_api* zyx_emu_table = nullptr;
#define ZYX_EMU (*::zyx_emu_table)
