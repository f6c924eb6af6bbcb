#pragma once
// The support stage (cf. VK-GL-CTS checkSupport): before anything is allocated, whether a case can run on
// this machine and, if not, why -- from the case and the machine's description (device::probe, with the
// descriptor transports filled in). What every GPU case needs -- a device that exists and supports VMM --
// is checked here; what a pattern needs beyond that, the pattern says (why_not_here, beside its runner).
// A driver that refuses at run time what the description promised still makes the case NotSupported,
// with the call and the status.
#include <string>

#include "device/probe.hpp"
#include "model/case.hpp"
#include "vocabulary/axes.hpp"

namespace vmmcheck::run {

// The machine as the support stage reads it: the probe, and how descriptors reach another process.
// Throws NotSupportedError without a driver or a GPU.
device::ProbeReport describe_for_support();

// "" when `c` can run on `device` of `machine`, else why not.
std::string why_not_here(const model::Case& c, const device::ProbeReport& machine, int device);

// What several patterns need, for their own checks:
// memory of kind `m` behind VMM mappings on `d` (the `memory` axis of the alias families);
std::string memory_why_not(patterns::Memory m, const device::DeviceCaps& d);
// a second GPU that `device` can access and that can access it (peer.*, a two-process multicast team).
std::string two_gpus_why_not(const device::ProbeReport& machine, int device);

}  // namespace vmmcheck::run
