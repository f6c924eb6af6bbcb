#include "litmus/parser.hpp"
