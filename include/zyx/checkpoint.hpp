// zyx checkpoints: named tensors saved to and loaded from files in the safetensors format, the
// format of Hugging Face's `safetensors` library, so files move between zyx and PyTorch / JAX /
// numpy.
//
//   #include <zyx/checkpoint.hpp>
//
//   zyx::save_safetensors("model.safetensors", {{"w", w}, {"b", b}}, {{"step", "1000"}});
//   auto tensors = zyx::load_safetensors("model.safetensors");          // [("w", …), ("b", …)]
//   auto meta = zyx::safetensors_metadata("model.safetensors");         // {"step": "1000"}
//
// ---- The file format -------------------------------------------------------------------------------
//
//   8 bytes   N, the header length: unsigned 64-bit little-endian
//   N bytes   the header: UTF-8 JSON, one object
//               { "<name>": {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}, …,
//                 "__metadata__": {"<key>": "<value>", …} }            (__metadata__ optional)
//             saved headers are padded with spaces so that N is a multiple of 8
//   the rest  the data buffer: each tensor's elements, row-major, little-endian, at
//             [begin, end) counted from the start of the buffer; the regions cover the buffer
//             exactly (no gaps, no overlaps, nothing after the last one)
//
// dtype names: F64 F32 F16 BF16 I64 I32 I16 I8 U64 U32 U16 U8 BOOL — every zyx DType has one. BOOL
// is one byte per element; loading maps every nonzero byte to true.
//
// ---- Errors ---------------------------------------------------------------------------------------
//
// Every failure throws zyx::Error (core/error.hpp, included by zyx/tensor.hpp) whose message starts
// with the function's name, then the file's path, then what is wrong:
//   "load_safetensors: /tmp/m.safetensors: tensor 'w': data_offsets [0, 20] hold 20 bytes, F32 [2,3] needs 24"
//   Io               the file cannot be opened, read, written or renamed (missing file,
//                    directory that does not exist, disk full …)
//   InvalidArgument  bad arguments to save_safetensors (they name the tensor) or a malformed file
//                    (it is named with what is wrong; see load_safetensors)
//   Unsupported      a file tensor of a dtype the format knows but zyx has not (F8_E4M3, …)
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "zyx/tensor.hpp"

namespace zyx {

// Writes `tensors` (in the given order, which is also their order in the data buffer and in the
// header) and `metadata` to `path`, replacing any file there.
// Tensors may live on any device and may be unrealized: their values are read (realizing them)
// one tensor at a time, so the save copies at most one tensor's bytes into host memory at once.
// The file is written to `path + ".tmp"` and then renamed to `path`, so a failed save never leaves
// a partial file at `path` (a file already there stays as it was) nor the ".tmp" file.
// InvalidArgument (before anything is written) naming the tensor: an undefined tensor, an empty
// name, the name "__metadata__", a name given twice, a name or metadata text that is not valid
// UTF-8, or a header larger than the 100 000 000-byte limit that load_safetensors enforces.
// Io naming the path when the file cannot be written or renamed.
void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

// Reads every tensor of the file at `path` onto `device` (realized: each holds its own buffer).
// Order: by position in the data buffer (data_offsets); tensors at the same position (only empty
// ones can share it) keep their order in the header. For a file written by save_safetensors this
// is the order it was saved in.
// The whole header is checked before any data is read; each of these is an error naming the path
// and the entry at fault:
//   Io: the file is missing or cannot be read.
//   InvalidArgument: the file is shorter than 8 bytes; the header length is above 100 000 000
//   bytes (the limit of the format's reference implementation) or runs past the end of the file;
//   the header is not valid JSON, not an object, nests deeper than 16 levels, or repeats a key
//   (in any object); an entry is not an object, lacks "dtype", "shape" or "data_offsets", or has
//   one of the wrong JSON type (dtype a string, shape an array of non-negative integers,
//   data_offsets an array of two non-negative integers); the dtype name is unknown; the shape's
//   element count times the dtype size exceeds 2^63 − 1; begin > end; end − begin differs from
//   the tensor's byte size; a region runs past the data buffer; regions overlap, leave a gap, or
//   leave bytes after the last one; "__metadata__" is not an object of strings (null is taken as
//   no metadata).
//   Unsupported: a dtype of the format that zyx does not have (F8_E4M3, F8_E5M2, C64, …).
// Entries may carry extra fields (ignored, as the reference implementation does); the header
// need not be padded.
std::vector<std::pair<std::string, Tensor>> load_safetensors(const std::string& path, Device device = Device::host());

// The "__metadata__" object of the file at `path` (empty when it has none). Reads and checks the
// header exactly as load_safetensors does (same errors) but no tensor data.
std::map<std::string, std::string> safetensors_metadata(const std::string& path);

}  // namespace zyx
