// Tilize and untilize (tt-metal api/compute/tilize.h, untilize.h, pack_untilize.h), part of the
// emulator compute API (included by compute_kernel_api.h, so api/compute/tilize.h, untilize.h and
// pack_untilize.h all reach it).
//
// A row-major block of N tiles is 32 rows of N·32 datums (Float32, Float16_b, Float16, Int32,
// UInt32, UInt16, UInt8), row r at byte r·N·32·datum_size, in the N tile-sized pages of a CB: the
// CB page convention of tt-metal's tilize / untilize kernels (a reader pushes N pages of rows,
// the compute kernel waits for N pages). Tiles are the usual four 16×16 faces.
//
// tilize_block, untilize_block and pack_untilize_block acquire, commit, wait for and release DST
// themselves (once per tile, resp. per block), as tt-metal's do: call them outside
// tile_regs_acquire / tile_regs_release. pack_untilize_dest packs tiles the kernel has put in DST,
// inside tile_regs_wait / tile_regs_release. Numerics (docs/numerics.md §2, §3): tilize and
// pack_untilize move data as copy_tile and pack_tile do (exact for a Float32 CB into a 32-bit
// DST; a 16-bit DST rounds to nearest even); untilize_block's copy goes through SrcA, so a
// Float32 CB is read as TF32 there. The *_init / *_uninit calls configure nothing the emulator
// needs beyond the output CB; their extra parameters are accepted and ignored.
#pragma once

#include "api/compute/compute_kernel_api.h"

namespace ckernel {

// ---- tilize.h ---------------------------------------------------------------------------------
ALWI void tilize_init(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)block, (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_TILIZE, icb, icb, int32_t(ocb));
}
// The older short inits (tt-metal before the call_line forms): same effect here.
ALWI void tilize_init_short(uint32_t icb, uint32_t block, uint32_t ocb = 16) { tilize_init(icb, block, ocb); }
ALWI void tilize_init_short_with_dt(uint32_t old_icb, uint32_t new_icb, uint32_t block, uint32_t ocb = 16) {
    (void)old_icb;
    ZYX_EMU.reconfig_unpack(new_icb, ~0u);  // the _with_dt forms reconfigure SrcA's format
    tilize_init(new_icb, block, ocb);
}
// Tile t (0 ≤ t < block) is tile column input_tile_index + t of the row-major block at the front
// of icb, whose rows are `block` tiles wide (tt-metal's LLK takes that width from tilize_init;
// kernels pass the same), and is packed into page output_tile_index + t of ocb's reserved back.
ALWI void tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                       uint32_t output_tile_index = 0) {
    for (uint32_t t = 0; t < block; ++t) {
        tile_regs_acquire();
        zyx_emu_c::fpu(ZYX_EMU_FPU_TILIZE, icb, icb, input_tile_index + t, 0, 0, block);
        tile_regs_commit();
        tile_regs_wait();
        ZYX_EMU.pack_tile(0, ocb, output_tile_index + t, true);
        tile_regs_release();
    }
}
ALWI void tilize_uninit(uint32_t icb, uint32_t ocb = 16) { (void)icb, (void)ocb; }
ALWI void tilize_uninit_with_dt(uint32_t old_icb, uint32_t new_icb, uint32_t ocb = 16) {
    (void)old_icb, (void)ocb;
    ZYX_EMU.reconfig_unpack(new_icb, ~0u);
}
// fast_tilize_* (tt-metal tilize.h): silicon's faster unpack/pack sequence for the same result, so
// here the tilize path itself. fast_tilize_block(icb, block, ocb, in, out) = tilize_block(…): tile
// t is tile column in + t of a block `block` tiles wide, packed into page out + t; it acquires and
// releases DST itself. `full_dim` of the inits is the block width in tiles.
ALWI void fast_tilize_init(uint32_t icb, uint32_t full_dim, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    tilize_init(icb, full_dim, ocb, call_line);
}
// Also reconfigures both unpackers for icb, as tt-metal's does.
ALWI void fast_tilize_init_with_dt(uint32_t icb, uint32_t full_dim, uint32_t ocb) {
    ZYX_EMU.reconfig_unpack(icb, icb);
    fast_tilize_init(icb, full_dim, ocb);
}
ALWI void fast_tilize_block(uint32_t icb, uint32_t block, uint32_t ocb, uint32_t input_tile_index = 0,
                            uint32_t output_tile_index = 0) {
    tilize_block(icb, block, ocb, input_tile_index, output_tile_index);
}
ALWI void fast_tilize_uninit(uint32_t icb, uint32_t ocb) { tilize_uninit(icb, ocb); }

// ---- untilize.h -------------------------------------------------------------------------------
// untilize_init(icb, call_line) in tt-metal now; older versions took (icb, ocb): both compile.
ALWI void untilize_init(uint32_t icb, uint32_t ocb_or_call_line = __builtin_LINE()) {
    (void)ocb_or_call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_COPY, icb, icb, -1);
}
ALWI void untilize_init_short(uint32_t icb) { untilize_init(icb); }
// The full_ct_dim tiles at the front of icb become one row-major block of full_ct_dim pages at
// ocb's sequential pack position (block_ct_dim tiles in DST at a time).
template <uint32_t block_ct_dim = 1>
ALWI void untilize_block(uint32_t icb, uint32_t full_ct_dim, uint32_t ocb) {
    static_assert(block_ct_dim >= 1, "untilize_block: block_ct_dim must be at least 1");
    if (full_ct_dim % block_ct_dim != 0)
        ZYX_EMU.kernel_fault("untilize_block: full_ct_dim is not divisible by block_ct_dim");
    for (uint32_t t = 0; t < full_ct_dim / block_ct_dim; ++t) {
        tile_regs_acquire();
        for (uint32_t r = 0; r < block_ct_dim; ++r)
            zyx_emu_c::fpu(ZYX_EMU_FPU_COPY, icb, icb, t * block_ct_dim + r, 0, r, 1 /* through SrcA */);
        tile_regs_commit();
        tile_regs_wait();
        for (uint32_t r = 0; r < block_ct_dim; ++r)
            ZYX_EMU.pack_rows(r, ocb, 0, full_ct_dim, t * block_ct_dim + r, true);
        tile_regs_release();
    }
}
ALWI void untilize_uninit(uint32_t icb = 0) { (void)icb; }

// ---- pack_untilize.h --------------------------------------------------------------------------
// Only full 32×32 tiles in row-major rows of 32 datums are modelled: face_r_dim 16, num_faces 4,
// no narrow_row, dense or diagonal packing (other values fail with "Unsupported: …").
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool narrow_row = false,
          std::uint32_t row_num_datums = 32, bool dense = false>
ALWI void pack_untilize_dest_init(uint32_t ocb, uint32_t face_r_dim = 16, uint32_t num_faces = 4,
                                  uint32_t call_line = __builtin_LINE()) {
    static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be divisible by block_ct_dim");
    (void)call_line;
    if (narrow_row || dense || row_num_datums != 32 || face_r_dim != 16 || num_faces != 4)
        ZYX_EMU.kernel_fault(
            "Unsupported: pack_untilize with narrow_row, dense, row_num_datums != 32, face_r_dim != 16 "
            "or num_faces != 4");
    zyx_emu_c::init(ZYX_EMU_FPU_COPY, 0, 0, int32_t(ocb), ZYX_EMU_INIT_HW_ONLY);  // the packer only
}
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
ALWI void pack_untilize_init(uint32_t icb, uint32_t ocb, uint32_t call_line = __builtin_LINE()) {
    (void)call_line;
    zyx_emu_c::init(ZYX_EMU_FPU_COPY, icb, icb, -1);
    pack_untilize_dest_init<block_ct_dim, full_ct_dim>(ocb);
}
// Tiles 0 … block_ct_dim−1 at the front of icb become tile columns block_c_index·block_ct_dim + c
// of the row-major block of full_ct_dim pages that starts at ocb's first reserved page (the
// kernel reserves and pushes full_ct_dim pages itself). tt-metal's header unpacks tiles 0 …
// block_ct_dim−1 again for every row of a block_rt_dim > 1, which the emulator does not model.
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim>
ALWI void pack_untilize_block(uint32_t icb, uint32_t block_rt_dim, uint32_t ocb, uint32_t block_c_index = 0) {
    static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be divisible by block_ct_dim");
    if (block_rt_dim != 1) ZYX_EMU.kernel_fault("Unsupported: pack_untilize_block with block_rt_dim != 1");
    tile_regs_acquire();
    for (uint32_t c = 0; c < block_ct_dim; ++c) zyx_emu_c::fpu(ZYX_EMU_FPU_COPY, icb, icb, c, c, c, 0);
    tile_regs_commit();
    tile_regs_wait();
    for (uint32_t c = 0; c < block_ct_dim; ++c)
        ZYX_EMU.pack_rows(c, ocb, 0, full_ct_dim, block_c_index * block_ct_dim + c, false);
    tile_regs_release();
}
// DST tiles (tile_dst_rt_offset + r)·block_ct_dim + tile_dst_ct_offset + c (r < block_rt_dim,
// c < block_ct_dim) become tile column block_c_index·block_ct_dim + c of the row-major block
// that starts at reserved page r·full_ct_dim of ocb. Call between tile_regs_wait and
// tile_regs_release.
template <uint32_t block_ct_dim = 8, uint32_t full_ct_dim = block_ct_dim, bool diagonal = false,
          bool narrow_row = false, std::uint32_t row_num_datums = 32, uint32_t tile_dst_ct_offset = 0,
          bool dense = false>
ALWI void pack_untilize_dest(uint32_t ocb, uint32_t block_rt_dim = 1, uint32_t block_c_index = 0,
                             uint32_t face_r_dim = 16, uint32_t num_faces = 4, uint32_t tile_dst_rt_offset = 0) {
    static_assert(full_ct_dim % block_ct_dim == 0, "pack_untilize: full_ct_dim must be divisible by block_ct_dim");
    if (diagonal || narrow_row || dense || row_num_datums != 32 || face_r_dim != 16 || num_faces != 4)
        ZYX_EMU.kernel_fault(
            "Unsupported: pack_untilize_dest with diagonal, narrow_row, dense, row_num_datums != 32, "
            "face_r_dim != 16 or num_faces != 4");
    for (uint32_t r = 0; r < block_rt_dim; ++r)
        for (uint32_t c = 0; c < block_ct_dim; ++c)
            ZYX_EMU.pack_rows((tile_dst_rt_offset + r) * block_ct_dim + tile_dst_ct_offset + c, ocb, r * full_ct_dim,
                              full_ct_dim, block_c_index * block_ct_dim + c, false);
}
ALWI void pack_untilize_uninit(uint32_t ocb = 16) { (void)ocb; }

}  // namespace ckernel
