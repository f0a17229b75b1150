#pragma once
// A stream buffer that writes through to another stream and keeps a copy:
// `arena grade` shows arena run's progress on stderr and reads back from
// the copy which bots the run gave up (given_up_bots(), grade.hpp).

#include <ostream>
#include <streambuf>
#include <string>

namespace arena::grade {

class Tee : public std::streambuf {
  public:
    explicit Tee(std::ostream& to) : to_(to) {}
    [[nodiscard]] const std::string& text() const { return text_; }

  protected:
    int overflow(int c) override {
        if (c == traits_type::eof()) return traits_type::not_eof(c);
        to_.put(static_cast<char>(c));
        text_.push_back(static_cast<char>(c));
        return c;
    }
    std::streamsize xsputn(const char* s, std::streamsize n) override {
        to_.write(s, n);
        text_.append(s, static_cast<std::size_t>(n));
        return n;
    }
    int sync() override {
        to_.flush();
        return 0;
    }

  private:
    std::ostream& to_;
    std::string text_;
};

}  // namespace arena::grade
