#pragma once
// A value made once per key however many threads ask for it: the first to ask makes it, the others wait
// for that one (vmmcheck toolchain: one ptxas run per program's PTX, one nvdisasm run per CUBIN). What
// the maker throws, every asker gets.
#include <future>
#include <map>
#include <mutex>
#include <string>

namespace vmmcheck::toolchain {

template <class Value>
class OnceEach {
 public:
  template <class Make>
  const Value& get(const std::string& key, Make&& make) {
    std::promise<Value> mine;
    std::shared_future<Value>* made = nullptr;
    bool first = false;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto [it, fresh] = values_.try_emplace(key);
      if (fresh) it->second = mine.get_future().share();
      made = &it->second;  // map nodes stay put
      first = fresh;
    }
    if (first) {
      try {
        mine.set_value(make());
      } catch (...) {
        mine.set_exception(std::current_exception());
      }
    }
    return made->get();
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_future<Value>> values_;
};

}  // namespace vmmcheck::toolchain
