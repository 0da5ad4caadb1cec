// The x86 intrinsics header for the tile library's AVX-512 paths (empty without AVX-512).
#pragma once

#if defined(__AVX512F__)
// GCC 12 reports -Wmaybe-uninitialized inside its own AVX-512 intrinsics (the `__Y` of
// _mm512_undefined_*; GCC bug 105593, fixed in GCC 13). The pragma covers only that header.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
#endif
