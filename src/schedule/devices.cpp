#include "schedule/devices.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "core/error.hpp"
#include "core/log.hpp"
#include "graph/graph.hpp"
#include "schedule/interpreter_device.hpp"

#ifdef ZYX_HAVE_HOST_BACKEND
#include "backend/host/host_backend.hpp"
#endif
#ifdef ZYX_HAVE_TT_BACKEND
#include "backend/tenstorrent/config.hpp"
#include "backend/tenstorrent/device.hpp"
#include "backend/tenstorrent/pci_boards.hpp"
#endif

namespace zyx::sched {
namespace {

struct Registry {
    InterpreterPool interp_pool{"interpreter"};
    InterpreterDevice interp_device{interp_pool};
    DeviceSlot interp_slot;
#ifdef ZYX_HAVE_HOST_BACKEND
    backend::host::HostPool host_pool;
    backend::host::HostDevice host_device{host_pool};
#else
    InterpreterPool host_pool{"host"};
    InterpreterDevice host_device{host_pool};
#endif
    DeviceSlot host_slot;
#ifdef ZYX_HAVE_TT_BACKEND
    std::map<uint32_t, std::unique_ptr<tt::TTDevice>> tt_devices;
#endif
    std::map<uint32_t, DeviceSlot> tt_slots;

    Registry() {
        interp_slot.device = Device::interpreter();
        interp_slot.backend = &interp_device;
        interp_slot.pool = &interp_pool;
        interp_slot.host_memory = true;
        host_slot.device = Device::host();
        host_slot.backend = &host_device;
        host_slot.pool = &host_pool;
        host_slot.host_memory = true;
    }
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: see devices.hpp
    return *r;
}

#ifdef ZYX_HAVE_TT_BACKEND
// The device ids config.json enables, by the client's rule (TTDevice::open_all): the listed
// tenstorrent.device_ids, else {0} for the emulator target, else every Tenstorrent PCI board.
std::vector<uint32_t> configured_tt_ids(const tt::Config& cfg) {
    if (cfg.device_ids) return *cfg.device_ids;
    if (cfg.target == "emulator") return {0};
    std::vector<uint32_t> ids;
    for (size_t i = 0; i < tt::pci_boards().size(); ++i) ids.push_back(uint32_t(i));
    return ids;
}
#endif

DeviceSlot& open_tt(Registry& r, uint32_t index) {
    auto it = r.tt_slots.find(index);
    if (it != r.tt_slots.end()) return it->second;
    std::string name = Device::tt(index).str();
#ifdef ZYX_HAVE_TT_BACKEND
    std::unique_ptr<tt::TTDevice> dev;
    try {
        const tt::Config& cfg = tt::config();
        std::vector<uint32_t> ids = configured_tt_ids(cfg);
        if (std::find(ids.begin(), ids.end(), index) == ids.end()) {
            std::string list;
            for (uint32_t id : ids) list += (list.empty() ? "" : ", ") + std::to_string(id);
            throw Error(ErrorStatus::Initialization,
                        "not enabled: config " +
                            (cfg.origin.empty() ? std::string("(defaults)") : cfg.origin.string()) + " with target '" +
                            cfg.target + "' enables tt ids {" + list + "} (list more in tenstorrent.device_ids)");
        }
        tt::OpenOptions opts;
        opts.device_id = index;
        dev = tt::TTDevice::open(opts);
    } catch (const Error& e) {  // say which device the user asked for, keep the status
        throw Error(e.status(), "cannot open " + name + ": " + e.message());
    }
    ZYX_LOG(sched) << "opened " << name << ": " << dev->info().name;
    DeviceSlot slot;
    slot.device = Device::tt(index);
    slot.backend = dev.get();
    slot.pool = &dev->pool();
    slot.host_memory = false;
    r.tt_devices.emplace(index, std::move(dev));
    return r.tt_slots.emplace(index, std::move(slot)).first->second;
#else
    (void)r;
    throw Error(ErrorStatus::Initialization,
                "cannot open " + name + ": this zyx was built without the Tenstorrent backend");
#endif
}

}  // namespace

DeviceSlot& device_slot(Device d) {
    Registry& r = registry();
    switch (d.kind()) {
        case Device::Kind::host: return r.host_slot;
        case Device::Kind::interpreter: return r.interp_slot;
        case Device::Kind::tt: return open_tt(r, d.index());
    }
    throw Error(ErrorStatus::Internal, "device_slot: unknown device kind");
}

std::vector<backend::ProgramId> compile_kernels(DeviceSlot& slot, const std::vector<const kernel::Kernel*>& kernels) {
    if (kernels.empty()) return {};
    ZYX_LOG(sched) << "compiling " << kernels.size() << " kernel(s) on " << slot.device.str() << " in one batch";
    return slot.backend->compile_batch(kernels);
}

const char* host_backend_name() {
#ifdef ZYX_HAVE_HOST_BACKEND
    return "host-jit";
#else
    return "interpreter";
#endif
}

}  // namespace zyx::sched

namespace zyx {

std::vector<Device> available_devices() {
    std::lock_guard<std::recursive_mutex> lock(graph::runtime_mutex());
    std::vector<Device> out = {Device::host(), Device::interpreter()};
#ifdef ZYX_HAVE_TT_BACKEND
    static bool tried = false;
    static std::vector<uint32_t> opened;
    if (!tried) {
        tried = true;
        std::vector<uint32_t> ids;
        try {
            ids = sched::configured_tt_ids(tt::config());
        } catch (const Error& e) {
            ZYX_LOG(sched) << "Tenstorrent devices left out: " << e.what();
            ids.clear();
        }
        for (uint32_t id : ids) {
            try {
                sched::device_slot(Device::tt(id));
                opened.push_back(id);
            } catch (const Error& e) {
                ZYX_LOG(sched) << "tt:" << id << " left out of available_devices(): " << e.what();
            }
        }
    }
    for (uint32_t id : opened) out.push_back(Device::tt(id));
#endif
    return out;
}

}  // namespace zyx
