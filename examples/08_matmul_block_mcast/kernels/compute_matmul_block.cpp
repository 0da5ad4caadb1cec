// Compute: this core's per_core_M x per_core_N output tiles, C = A·B, with matmul_block.
// cb 0 receives A's row band as Kt / w blocks of per_core_M x w tiles, cb 1 B's column band as
// blocks of w x per_core_N tiles (reader_in0_mcast.cpp, reader_in1_mcast_writer.cpp); both CBs
// hold the whole band, so K is not split and no partial sums leave DST. The output is produced
// in subblocks of sbh x sbw tiles (at most 8: the whole fp32 DST in full-sync mode): one
// matmul_block call multiplies an sbh-tall strip of A tiles by an sbw-wide strip of B tiles and
// accumulates all sbh·sbw products into DST (tt-metal api/compute/matmul.h:
// DST[r·ct_dim + c] += A[in0_index + r·kt_dim] · B[in1_index + c]).
// Compile-time args: Kt, w, per_core_M, per_core_N, sbh, sbw.
void kernel_main() {
    constexpr uint32_t Kt = get_compile_time_arg_val(0), w = get_compile_time_arg_val(1);
    constexpr uint32_t pcM = get_compile_time_arg_val(2), pcN = get_compile_time_arg_val(3);
    constexpr uint32_t sbh = get_compile_time_arg_val(4), sbw = get_compile_time_arg_val(5);
    constexpr uint32_t blocks = Kt / w, in0_block = pcM * w, in1_block = w * pcN;
    constexpr uint32_t cb_in0 = tt::CBIndex::c_0, cb_in1 = tt::CBIndex::c_1, cb_out = tt::CBIndex::c_16;
    mm_block_init(cb_in0, cb_in1, cb_out, false, sbw, sbh, w);
    cb_wait_front(cb_in0, blocks * in0_block);
    cb_wait_front(cb_in1, blocks * in1_block);
    for (uint32_t sh = 0; sh < pcM / sbh; ++sh)
        for (uint32_t sw = 0; sw < pcN / sbw; ++sw) {
            tile_regs_acquire();
            for (uint32_t b = 0; b < blocks; ++b)
                for (uint32_t kk = 0; kk < w; ++kk)
                    matmul_block(cb_in0, cb_in1, b * in0_block + sh * sbh * w + kk, b * in1_block + kk * pcN + sw * sbw,
                                 0, false, sbw, sbh, w);
            tile_regs_commit();
            cb_reserve_back(cb_out, sbh * sbw);
            tile_regs_wait();
            for (uint32_t i = 0; i < sbh * sbw; ++i) pack_tile(i, cb_out);
            tile_regs_release();
            cb_push_back(cb_out, sbh * sbw);
        }
    cb_pop_front(cb_in0, blocks * in0_block);
    cb_pop_front(cb_in1, blocks * in1_block);
}
