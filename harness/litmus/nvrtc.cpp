#include "litmus/nvrtc.hpp"
