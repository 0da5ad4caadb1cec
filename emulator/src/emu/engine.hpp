#pragma once
namespace zyx::emu { struct Launch {}; class WorkerPool {}; }
