#include "litmus/codegen.hpp"
