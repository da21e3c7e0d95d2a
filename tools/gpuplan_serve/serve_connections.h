#pragma once
//! `gpuplan serve`'s connections. cpp-httplib 0.11 (Debian 12's) gives each connection a thread
//! of a fixed pool of 8 from its accept, and its read timeout restarts with every byte, so ten
//! sockets trickling a header line every few seconds, or left idle, hold every thread and nothing
//! else is answered. Its hooks suffice to change that without another server library: this server
//! takes each accepted socket itself (process_and_close_socket), one thread reads every connection
//! with epoll until its request is whole, within one deadline from the accept (the request line,
//! headers and body together), and only then a handler thread parses it with httplib (the guard,
//! routing and handlers are httplib's, unchanged), writes the reply within its own deadline and
//! closes the connection. A slow or idle socket costs a buffer, not a thread.
#include <httplib.h>

#include <cstddef>
#include <memory>
#include <string>

namespace gpuplan::cli {

//! What ServeServer allows its connections.
struct ConnectionLimits {
  //! Connections open at once, read or answered; the next is answered 503 with Retry-After.
  std::size_t max_connections = 512;
  double read_timeout_s = 10;   //!< [s] from the accept to the request's last byte: else 408
  double write_timeout_s = 30;  //!< [s] from a reply's first byte to its last
  unsigned handlers = 16;       //!< threads that parse whole requests and write the replies
};

//! An httplib server that reads its requests as above. Each connection carries one request
//! (the reply says Connection: close), so a connection never holds a thread between requests and
//! a body refused unread is never taken for the next request.
class ServeServer : public httplib::Server {
 public:
  explicit ServeServer(const ConnectionLimits& limits);
  ~ServeServer() override;
  ServeServer(const ServeServer&) = delete;
  ServeServer& operator=(const ServeServer&) = delete;

  //! Binds `host`:`port` (0 = any free port) as httplib does, with a listen backlog of SOMAXCONN:
  //! httplib 0.11 listens with 5, so a burst of connects past it waited for the kernel's SYN
  //! retries (1 s, then 3 s). The port bound, 0 when it could not bind.
  [[nodiscard]] int bind_port(const std::string& host, int port);

  //! True when the client whose request this thread answers has closed its connection (a request
  //! is read whole before it is answered, so any end of its stream, a half-close too, means the
  //! client stopped listening, as Go's net/http takes it); false on any other thread.
  [[nodiscard]] static bool client_gone();

  struct Connection;  //!< one accepted socket and what was read of it

 private:
  //! Takes an accepted socket from httplib's accept loop: to the reader, or refused at once.
  bool process_and_close_socket(socket_t sock) override;
  //! Parses and answers the whole request of `c` with httplib, then closes it.
  void answer(Connection& c);

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpuplan::cli
