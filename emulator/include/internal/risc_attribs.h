// Pointer attributes of tt-metal's internal/risc_attribs.h. On silicon tt_l1_ptr / tt_reg_ptr
// tell the RISC-V compiler that a pointer addresses L1 or a register; on the host every L1
// address is an ordinary pointer, so they expand to nothing:
//   volatile tt_l1_ptr uint32_t* sem = reinterpret_cast<volatile tt_l1_ptr uint32_t*>(addr);
#pragma once

#define tt_l1_ptr
#define tt_reg_ptr

#ifndef FORCE_INLINE
#define FORCE_INLINE inline __attribute__((always_inline))
#endif
