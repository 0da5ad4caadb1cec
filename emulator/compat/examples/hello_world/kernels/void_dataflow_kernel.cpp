// Runs on BRISC and on NCRISC of core (0,0): each says hello, with the runtime arg it was given
// and the processor it runs on.
#include "api/dataflow/dataflow_api.h"
#include "api/debug/dprint.h"

void kernel_main() {
    uint32_t greeting = get_arg_val<uint32_t>(0);
    DPRINT << "Hello, host, I am running a void data movement kernel on Data Movement core " << (noc_index == 0 ? 0 : 1)
           << ". My runtime arg is " << greeting << "." << ENDL();
}
