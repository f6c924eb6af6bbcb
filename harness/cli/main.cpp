#include <iostream>

#include "cli/app.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv, argv + argc);
  return vmmcheck::cli::run_app(args, std::cout, std::cerr);
}
