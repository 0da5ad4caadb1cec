// The fixed text every generated host kernel source starts with (helpers for the IR's rules).
#pragma once

namespace zyx::backend::host {
const char* host_preamble();
}
