#include "tools/gpuplan_serve/serve_connections.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "reports/quote_service.h"

namespace gpuplan::cli {
namespace {

using Clock = std::chrono::steady_clock;

//! Most bytes of a request line and header fields buffered before httplib reads the rest itself
//! (and refuses it: its request line over 8 KiB is a 414, the guard's headers over 16 KiB a 431).
constexpr std::size_t MAX_HEAD_BYTES = 64 * 1024;
//! Most bytes one connection's reader keeps: a head and a body at their caps.
constexpr std::size_t MAX_BUFFERED_BYTES = MAX_HEAD_BYTES + serve::MAX_REQUEST_BYTES;

Clock::time_point after(Clock::time_point t, double seconds) {
  return t + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

//! [ms] from now to `t`, at least 0, for poll().
int ms_until(Clock::time_point t) {
  const auto ms = std::chrono::ceil<std::chrono::milliseconds>(t - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(ms, 0, 60'000));
}

//! `r` as the bytes of an HTTP/1.1 response that closes the connection, with the headers every
//! reply has (serve::reply_headers): for the replies made before httplib sees a request.
std::string raw_reply(const serve::Reply& r) {
  const char* reason = r.status == 408 ? "Request Timeout" : "Service Unavailable";
  std::string out = "HTTP/1.1 " + std::to_string(r.status) + " " + reason + "\r\n";
  out += "Content-Type: " + r.content_type + "\r\n";
  out += "Content-Length: " + std::to_string(r.body.size()) + "\r\n";
  out += "Connection: close\r\n";
  for (const auto& [name, value] : serve::reply_headers(r)) out += name + ": " + value + "\r\n";
  return out + "\r\n" + r.body;
}

//! Reads and drops what the client has sent and not yet been read, without waiting, so closing
//! the socket sends FIN rather than a reset that could cut the reply short at the client.
void drain(int fd) {
  char buf[16 * 1024];
  for (int k = 0; k < 16 && ::recv(fd, buf, sizeof buf, MSG_DONTWAIT) > 0; ++k) {
  }
}

//! Sends `bytes` without waiting (a short reply fits the socket's buffer) and ends the stream.
void send_and_shut(int fd, const std::string& bytes) {
  (void)::send(fd, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  ::shutdown(fd, SHUT_WR);
  drain(fd);
}

//! What the reader needs of a head: whether a body follows and how long it is.
struct HeadFields {
  std::size_t content_lengths = 0;  //!< Content-Length fields
  std::optional<std::size_t> length;
  bool transfer_encoding = false;
  bool expect_continue = false;
};

bool starts_with_field(std::string_view line, std::string_view lower_name) {
  if (line.size() <= lower_name.size() || line[lower_name.size()] != ':') return false;
  for (std::size_t k = 0; k < lower_name.size(); ++k)
    if (std::tolower(static_cast<unsigned char>(line[k])) != lower_name[k]) return false;
  return true;
}

std::string_view field_value(std::string_view line, std::size_t name_size) {
  std::string_view v = line.substr(name_size + 1);
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t')) v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t')) v.remove_suffix(1);
  return v;
}

HeadFields head_fields(std::string_view head) {
  HeadFields h;
  for (std::size_t at = head.find("\r\n"); at != std::string_view::npos && at + 2 < head.size();) {
    const std::size_t next = head.find("\r\n", at + 2);
    const std::string_view line = head.substr(at + 2, next - at - 2);
    at = next;
    if (starts_with_field(line, "content-length")) {
      ++h.content_lengths;
      const std::string_view v = field_value(line, 14);
      if (!v.empty() && v.size() <= 18 && v.find_first_not_of("0123456789") == v.npos)
        h.length = std::stoull(std::string(v));
    } else if (starts_with_field(line, "transfer-encoding")) {
      h.transfer_encoding = true;
    } else if (starts_with_field(line, "expect")) {
      std::string v(field_value(line, 6));
      std::transform(v.begin(), v.end(), v.begin(),
                     [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
      h.expect_continue = v == "100-continue";
    }
  }
  return h;
}

}  // namespace

//! One accepted socket and what was read of it.
struct ServeServer::Connection {
  int fd = -1;
  uint64_t id = 0;
  Clock::time_point accepted;
  std::string buf;           //!< bytes read so far
  std::size_t scanned = 0;   //!< bytes of buf searched for the end of the head
  std::size_t head_end = 0;  //!< offset after the head's blank line (0 until read)

  //! True once httplib can take the request: its head and body are here, or no body will come
  //! before httplib answers (none announced, chunked or too long: refused unread; a client that
  //! waits for "100 Continue"), or the head outgrew MAX_HEAD_BYTES.
  [[nodiscard]] bool whole() {
    if (head_end == 0) {
      const std::size_t at = buf.find("\r\n\r\n", scanned >= 3 ? scanned - 3 : 0);
      scanned = buf.size();
      if (at == std::string::npos) return buf.size() > MAX_HEAD_BYTES;
      head_end = at + 4;
    }
    const HeadFields h = head_fields(std::string_view(buf).substr(0, head_end));
    if (h.content_lengths != 1 || h.transfer_encoding || !h.length) return true;
    if (*h.length > serve::MAX_REQUEST_BYTES || h.expect_continue) return true;
    return buf.size() - head_end >= *h.length;
  }
};

namespace {

//! httplib's view of a connection: the buffered bytes first, then the socket until the read
//! deadline (a body sent after "100 Continue"); writes until the write deadline, which starts
//! with the reply's first byte.
class BufferedStream final : public httplib::Stream {
 public:
  BufferedStream(const ServeServer::Connection& c, Clock::time_point read_deadline,
                 double write_timeout_s)
      : c_(c), read_deadline_(read_deadline), write_timeout_s_(write_timeout_s) {}

  bool is_readable() const override { return true; }
  bool is_writable() const override { return true; }

  ssize_t read(char* ptr, size_t size) override {
    if (pos_ < c_.buf.size()) {
      const std::size_t n = std::min(size, c_.buf.size() - pos_);
      std::copy_n(c_.buf.data() + pos_, n, ptr);
      pos_ += n;
      return static_cast<ssize_t>(n);
    }
    while (true) {
      const ssize_t n = ::recv(c_.fd, ptr, size, MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      pollfd p{c_.fd, POLLIN, 0};
      if (Clock::now() >= read_deadline_ || ::poll(&p, 1, ms_until(read_deadline_)) == 0) return -1;
    }
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!write_deadline_) write_deadline_ = after(Clock::now(), write_timeout_s_);
    while (true) {
      const ssize_t n = ::send(c_.fd, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (n >= 0) return n;
      if (errno == EINTR) continue;
      if (errno != EAGAIN && errno != EWOULDBLOCK) return -1;
      pollfd p{c_.fd, POLLOUT, 0};
      if (Clock::now() >= *write_deadline_ || ::poll(&p, 1, ms_until(*write_deadline_)) == 0)
        return -1;
    }
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getpeername(c_.fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) address(a, len, ip, port);
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    sockaddr_storage a{};
    socklen_t len = sizeof a;
    if (::getsockname(c_.fd, reinterpret_cast<sockaddr*>(&a), &len) == 0) address(a, len, ip, port);
  }
  socket_t socket() const override { return c_.fd; }

 private:
  static void address(const sockaddr_storage& a, socklen_t len, std::string& ip, int& port) {
    char host[NI_MAXHOST], serv[NI_MAXSERV];
    if (::getnameinfo(reinterpret_cast<const sockaddr*>(&a), len, host, sizeof host, serv,
                      sizeof serv, NI_NUMERICHOST | NI_NUMERICSERV) == 0) {
      ip = host;
      port = std::atoi(serv);
    }
  }

  const ServeServer::Connection& c_;
  std::size_t pos_ = 0;
  Clock::time_point read_deadline_;
  double write_timeout_s_;
  std::optional<Clock::time_point> write_deadline_;
};

//! httplib's task queue: runs the accept loop's task (process_and_close_socket, which only hands
//! the socket on) on the accept thread itself.
class InlineQueue final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override { fn(); }
  void shutdown() override {}
};

// NOTE: httplib 0.11's Request carries nothing of its connection, and a handler runs on the
// thread that answers it: client_gone() finds the connection through this thread's pointer.
thread_local const ServeServer::Connection* answering = nullptr;

}  // namespace

struct ServeServer::State {
  ConnectionLimits limits;
  int epoll_fd = -1;
  int wake_fd = -1;  //!< eventfd: a socket was adopted, or the server stops
  std::atomic<bool> stopping{false};
  std::atomic<std::size_t> open{0};  //!< connections adopted and not yet closed

  std::mutex adopt_mutex;  // guards adopted, next_id
  std::vector<std::unique_ptr<Connection>> adopted;
  uint64_t next_id = 1;  // 0 is the wake event

  // The reader thread's own: connections being read, and their deadlines in accept order (one
  // timeout for all, so the order of deadlines is the order of accepts).
  std::unordered_map<uint64_t, std::unique_ptr<Connection>> reading;
  std::deque<std::pair<Clock::time_point, uint64_t>> deadlines;

  std::mutex ready_mutex;  // guards ready
  std::condition_variable ready_cv;
  std::deque<std::unique_ptr<Connection>> ready;

  std::thread reader;
  std::vector<std::thread> handlers;

  void close_connection(Connection& c) {
    ::close(c.fd);
    c.fd = -1;
    open.fetch_sub(1);
  }

  //! Reads what `c` has sent; true when it is to be dropped (closed, failed or handed on).
  bool read_some(Connection& c) {
    char chunk[16 * 1024];
    while (c.buf.size() < MAX_BUFFERED_BYTES) {
      const ssize_t n = ::recv(
          c.fd, chunk, std::min(sizeof chunk, MAX_BUFFERED_BYTES - c.buf.size()), MSG_DONTWAIT);
      if (n > 0) {
        c.buf.append(chunk, static_cast<std::size_t>(n));
        continue;
      }
      if (n < 0 && errno == EINTR) continue;
      if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
      // NOTE: a client may half-close after a whole request; one that closed before, or failed,
      // gets nothing.
      if (n == 0 && c.whole()) return true;
      close_connection(c);
      return true;
    }
    return c.whole() || c.buf.size() >= MAX_BUFFERED_BYTES;
  }

  void expire(Connection& c) {
    if (c.buf.empty()) {
      // NOTE: a connection that sent nothing is closed without a word, as a browser's
      // speculative connection expects (it opens another when it has a request).
      close_connection(c);
      return;
    }
    char timeout[32];
    std::snprintf(timeout, sizeof timeout, "%g s", limits.read_timeout_s);
    const std::string reply =
        raw_reply(serve::error_reply(408, "", "timeout",
                                     "the request did not arrive whole within " +
                                         std::string(timeout) + " of connecting (--read-timeout)"));
    send_and_shut(c.fd, reply);
    close_connection(c);
  }

  void hand_on(std::unique_ptr<Connection> c) {
    {
      const std::lock_guard lock(ready_mutex);
      ready.push_back(std::move(c));
    }
    ready_cv.notify_one();
  }

  void read_loop() {
    std::vector<epoll_event> events(256);
    while (!stopping.load()) {
      const int timeout_ms =
          deadlines.empty() ? 1000 : std::min(1000, ms_until(deadlines.front().first));
      const int n =
          ::epoll_wait(epoll_fd, events.data(), static_cast<int>(events.size()), timeout_ms);
      for (int k = 0; k < n; ++k) {
        const uint64_t id = events[k].data.u64;
        if (id == 0) {
          uint64_t count = 0;
          (void)::read(wake_fd, &count, sizeof count);
          std::vector<std::unique_ptr<Connection>> fresh;
          {
            const std::lock_guard lock(adopt_mutex);
            fresh.swap(adopted);
          }
          for (auto& c : fresh) {
            epoll_event e{};
            e.events = EPOLLIN | EPOLLRDHUP;
            e.data.u64 = c->id;
            if (::epoll_ctl(epoll_fd, EPOLL_CTL_ADD, c->fd, &e) != 0) {
              close_connection(*c);
              continue;
            }
            deadlines.emplace_back(after(c->accepted, limits.read_timeout_s), c->id);
            reading.emplace(c->id, std::move(c));
          }
          continue;
        }
        const auto it = reading.find(id);
        if (it == reading.end()) continue;
        Connection& c = *it->second;
        if (!read_some(c)) continue;
        if (c.fd >= 0) {
          ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, c.fd, nullptr);
          hand_on(std::move(it->second));
        }
        reading.erase(it);
      }
      const auto now = Clock::now();
      while (!deadlines.empty() && deadlines.front().first <= now) {
        const auto it = reading.find(deadlines.front().second);
        deadlines.pop_front();
        if (it == reading.end()) continue;  // handed on or closed before its deadline
        ::epoll_ctl(epoll_fd, EPOLL_CTL_DEL, it->second->fd, nullptr);
        expire(*it->second);
        reading.erase(it);
      }
    }
    for (auto& [id, c] : reading) close_connection(*c);
  }
};

ServeServer::ServeServer(const ConnectionLimits& limits) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.limits = limits;
  s.epoll_fd = ::epoll_create1(EPOLL_CLOEXEC);
  s.wake_fd = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  epoll_event e{};
  e.events = EPOLLIN;
  e.data.u64 = 0;
  ::epoll_ctl(s.epoll_fd, EPOLL_CTL_ADD, s.wake_fd, &e);
  new_task_queue = [] { return new InlineQueue; };
  s.reader = std::thread([&s] { s.read_loop(); });
  for (unsigned k = 0; k < std::max(limits.handlers, 1u); ++k)
    s.handlers.emplace_back([this] {
      State& st = *state_;
      while (true) {
        std::unique_ptr<Connection> c;
        {
          std::unique_lock lock(st.ready_mutex);
          st.ready_cv.wait(lock, [&st] { return st.stopping.load() || !st.ready.empty(); });
          if (st.ready.empty()) return;
          c = std::move(st.ready.front());
          st.ready.pop_front();
        }
        answer(*c);
      }
    });
}

ServeServer::~ServeServer() {
  State& s = *state_;
  {
    // NOTE: set under the handlers' lock, so none can miss it between its check and its wait.
    const std::lock_guard lock(s.ready_mutex);
    s.stopping.store(true);
  }
  const uint64_t one = 1;
  (void)::write(s.wake_fd, &one, sizeof one);
  s.ready_cv.notify_all();
  s.reader.join();
  for (std::thread& t : s.handlers) t.join();
  for (auto& c : s.adopted) s.close_connection(*c);
  ::close(s.wake_fd);
  ::close(s.epoll_fd);
}

int ServeServer::bind_port(const std::string& host, int port) {
  if (port == 0) {
    port = bind_to_any_port(host);
    if (port < 0) return 0;
  } else if (!bind_to_port(host, port)) {
    return 0;
  }
  // NOTE: listen() again on a listening socket only sets its backlog (Linux).
  ::listen(svr_sock_, SOMAXCONN);
  return port;
}

bool ServeServer::process_and_close_socket(socket_t sock) {
  State& s = *state_;
  // NOTE: httplib answers a socket numbered FD_SETSIZE or above with a bare 500 (its build uses
  // select()), so such a socket counts as over the limit too.
  if (s.stopping.load() || s.open.load() >= s.limits.max_connections || sock >= FD_SETSIZE) {
    serve::Reply busy =
        serve::error_reply(503, "", "busy",
                           "the server has " + std::to_string(s.open.load()) +
                               " connections open (its limit, --max-connections " +
                               std::to_string(s.limits.max_connections) + "); try again in " +
                               std::to_string(serve::BUSY_RETRY_AFTER_S) + " s");
    busy.retry_after_s = serve::BUSY_RETRY_AFTER_S;
    send_and_shut(sock, raw_reply(busy));
    ::close(sock);
    return false;
  }
  s.open.fetch_add(1);
  ::fcntl(sock, F_SETFL, ::fcntl(sock, F_GETFL) | O_NONBLOCK);
  auto c = std::make_unique<Connection>();
  c->fd = sock;
  c->accepted = Clock::now();
  {
    const std::lock_guard lock(s.adopt_mutex);
    c->id = s.next_id++;
    s.adopted.push_back(std::move(c));
  }
  const uint64_t one = 1;
  (void)::write(s.wake_fd, &one, sizeof one);
  return true;
}

void ServeServer::answer(Connection& c) {
  State& s = *state_;
  BufferedStream strm(c, after(c.accepted, s.limits.read_timeout_s), s.limits.write_timeout_s);
  answering = &c;
  try {
    bool closed = false;
    (void)process_request(strm, /*close_connection=*/true, closed, nullptr);
  } catch (...) {
    // NOTE: httplib guards the handlers itself; this only keeps the thread when its parsing
    // runs out of memory.
  }
  answering = nullptr;
  ::shutdown(c.fd, SHUT_WR);
  drain(c.fd);
  s.close_connection(c);
}

bool ServeServer::client_gone() {
  if (!answering) return false;
  pollfd p{answering->fd, POLLIN | POLLRDHUP, 0};
  if (::poll(&p, 1, 0) <= 0) return false;
  if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) return true;
  // Bytes after the request (this connection takes one) are read and dropped.
  char buf[4096];
  const ssize_t n = ::recv(answering->fd, buf, sizeof buf, MSG_DONTWAIT);
  return n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
}

}  // namespace gpuplan::cli
