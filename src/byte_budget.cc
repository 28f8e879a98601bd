#include "rollcall/byte_budget.h"

namespace rollcall {

ByteBudget::Share ByteBudget::Take(std::size_t bytes) {
  std::unique_lock<std::mutex> lock(mutex_);
  freed_.wait(lock, [&] { return out_ == 0 || (out_ <= capacity_ && bytes <= capacity_ - out_); });
  out_ += bytes;
  return {*this, bytes};
}

void ByteBudget::Give(std::size_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    out_ -= bytes;
  }
  freed_.notify_all();
}

ByteBudget::Share::~Share() { budget_.Give(bytes_); }

}  // namespace rollcall
