// Older tt-metal path.
#pragma once
#include "api/dataflow/dataflow_api.h"
