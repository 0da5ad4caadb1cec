// tt-metal's tt::stl::Span (tt_stl/span.hpp), here std::span.
#pragma once

#include <cstddef>
#include <span>

namespace tt::stl {
template <class T, std::size_t Extent = std::dynamic_extent>
using Span = std::span<T, Extent>;
}  // namespace tt::stl
namespace ttsl = tt::stl;
