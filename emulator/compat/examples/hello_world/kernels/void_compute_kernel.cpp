// Runs on the three TRISCs of core (0,0). DPRINT_MATH prints from the MATH processor (TR1) only;
// a plain DPRINT would print once per TRISC.
#include "api/compute/compute_kernel_api.h"
#include "api/debug/dprint.h"

void kernel_main() { DPRINT_MATH(DPRINT << "Hello, host, I am running a void compute kernel." << ENDL()); }
