#pragma once
// A large array for transposition tables and search trees, backed by
// transparent huge pages where the kernel offers them: with 4 KiB pages a
// table of tens of MiB costs a TLB miss on nearly every probe, which
// dominates the time of a fast search.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace arena::c4 {

template <class T>
class LargeArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    LargeArray() = default;
    explicit LargeArray(std::size_t n) { assign(n); }
    LargeArray(const LargeArray&) = delete;
    LargeArray& operator=(const LargeArray&) = delete;
    ~LargeArray() { std::free(data_); }

    // n value-initialised elements; the old contents are lost.
    void assign(std::size_t n) {
        std::free(data_);
        data_ = nullptr;
        size_ = n;
        if (n == 0) return;
        constexpr std::size_t kHuge = std::size_t{2} << 20;
        const std::size_t bytes = (n * sizeof(T) + kHuge - 1) / kHuge * kHuge;
        void* p = std::aligned_alloc(kHuge, bytes);
        if (p == nullptr) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
        data_ = static_cast<T*>(p);
        fill();
    }
    void fill() {
        for (std::size_t i = 0; i < size_; ++i)
            new (data_ + i) T{};
    }

    friend void swap(LargeArray& a, LargeArray& b) noexcept {
        std::swap(a.data_, b.data_);
        std::swap(a.size_, b.size_);
    }

    [[nodiscard]] std::size_t size() const {
        return size_;
    }
    [[nodiscard]] T& operator[](std::size_t i) {
        return data_[i];
    }
    [[nodiscard]] const T& operator[](std::size_t i) const {
        return data_[i];
    }
    [[nodiscard]] T* data() {
        return data_;
    }

  private:
    T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace arena::c4
