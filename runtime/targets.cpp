// target_create: the one place that knows which targets this runtime was built with.
#include "core/error.hpp"
#include "target.hpp"

namespace zyx::tt::runtime {

#ifdef ZYX_TT_HAVE_EMULATOR
std::unique_ptr<Target> emulator_target_create(const TargetOptions& o);
#endif
#ifdef ZYX_TT_HAVE_METAL
std::unique_ptr<Target> metal_target_create(const TargetOptions& o);
#endif

std::vector<std::string> target_names() {
    std::vector<std::string> names;
#ifdef ZYX_TT_HAVE_EMULATOR
    names.push_back("emulator");
#endif
#ifdef ZYX_TT_HAVE_METAL
    names.push_back("metal");
#endif
    return names;
}

std::unique_ptr<Target> target_create(const TargetOptions& o) {
#ifdef ZYX_TT_HAVE_EMULATOR
    if (o.target == "emulator") return emulator_target_create(o);
#endif
#ifdef ZYX_TT_HAVE_METAL
    if (o.target == "metal") return metal_target_create(o);
#endif
    std::string known;
    for (const std::string& n : target_names()) known += (known.empty() ? "" : ", ") + n;
    if (o.target == "emulator" || o.target == "metal")
        throw Error(ErrorStatus::Unsupported,
                    "Unsupported: this zyx-tt-runtime was built without the '" + o.target +
                        "' target (built with: " + (known.empty() ? "none" : known) + ")");
    throw Error(ErrorStatus::InvalidArgument, "unknown target '" + o.target + "' (this runtime has: " + known + ")");
}

}  // namespace zyx::tt::runtime
