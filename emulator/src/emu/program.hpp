#pragma once
namespace zyx::emu { struct Program {}; }
