// latency-proxy: a TCP proxy that adds a fixed delay to every byte, each way
// (a test and bench tool, not installed).
//
//     latency-proxy [--listen ADDR] TARGET_PORT RTT_MS [PORTFILE]
//
// Listens on a free port of ADDR (default 127.0.0.1; written to PORTFILE,
// else printed), forwards each connection to 127.0.0.1:TARGET_PORT, and
// hands every chunk read on one side to the other RTT_MS/2 milliseconds
// later, in order: a round trip costs RTT_MS more, as to a server on another
// machine, while throughput is not limited (chunks in flight overlap).
// RTT_MS 0 forwards at once (it still counts). Used by tests/pg/bench.sh
// (PG_RTT_MS) where `tc netem` on loopback would delay every test's traffic,
// and by its scaling rows and tests/pg/test_machines.sh, where it runs in the
// server's network namespace (tests/tools/netns.bash) and listens on 0.0.0.0
// there: the machines' connections arrive over veth pairs. That namespace has
// no route out; without --listen nothing leaves 127.0.0.1.
//
// Each direction of a connection is a thread that reads a chunk, sleeps
// until it is due (clock_nanosleep on an absolute monotonic time) and sends
// it on; what arrived meanwhile came with it and follows at once. It is C++
// rather than a script because the scaling rows run dozens of connections
// through it on two cores: the proxy's own CPU would otherwise weigh on the
// many-pipeline rows more than on the one-pipeline row.
//
// LATENCY_PROXY_LOG=FILE appends a line per connection when it closes:
// "turns T c2s C s2c S" (T: round trips the client waited for: client sends
// that followed the server's ReadyForQuery, the end of its answer to a Sync
// or a query; C, S: chunks each way). Counting every client send that
// followed any server send would count races too: under load a pipeline's
// bytes may reach the proxy in two reads with results of its first commands
// between them, though the client waited for nothing.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace {

struct Conn {
    int client = -1, server = -1;
    std::mutex lock;
    bool answered = false;  // the server's last answer ended; the client has not sent since
    long turns = 0, chunks_c = 0, chunks_s = 0;
    int open_dirs = 2;
    const char* log = nullptr;

    // A server chunk that ends with ReadyForQuery: 'Z', length 5, a status byte.
    static bool ready_for_query(const unsigned char* d, size_t n) {
        static const unsigned char z[5] = {'Z', 0, 0, 0, 5};
        return n >= 6 && std::memcmp(d + n - 6, z, 5) == 0 &&
               (d[n - 1] == 'I' || d[n - 1] == 'T' || d[n - 1] == 'E');
    }
    void note(bool from_client, const unsigned char* d, size_t n) {
        std::lock_guard<std::mutex> g(lock);
        if (from_client) {
            if (answered) {
                ++turns;
                answered = false;
            }
            ++chunks_c;
        } else {
            if (ready_for_query(d, n)) answered = true;
            ++chunks_s;
        }
    }
    // One direction ended: the last one closes both sockets and logs.
    void done() {
        bool last;
        {
            std::lock_guard<std::mutex> g(lock);
            last = --open_dirs == 0;
        }
        if (!last) return;
        ::close(client);
        ::close(server);
        if (log) {
            if (FILE* f = std::fopen(log, "a")) {
                std::fprintf(f, "turns %ld c2s %ld s2c %ld\n", turns, chunks_c, chunks_s);
                std::fclose(f);
            }
        }
    }
};

timespec add_ns(timespec t, long ns) {
    t.tv_nsec += ns % 1000000000L;
    t.tv_sec += ns / 1000000000L;
    if (t.tv_nsec >= 1000000000L) {
        t.tv_nsec -= 1000000000L;
        ++t.tv_sec;
    }
    return t;
}

bool send_all(int fd, const unsigned char* d, size_t n) {
    while (n > 0) {
        ssize_t w = ::send(fd, d, n, MSG_NOSIGNAL);
        if (w < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        d += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

// Forwards src to dst, each chunk delay_ns after it was read.
void pipe_dir(std::shared_ptr<Conn> c, bool from_client, long delay_ns) {
    const int src = from_client ? c->client : c->server;
    const int dst = from_client ? c->server : c->client;
    std::unique_ptr<unsigned char[]> buf(new unsigned char[65536]);
    timespec due{};
    clock_gettime(CLOCK_MONOTONIC, &due);
    due = add_ns(due, delay_ns);
    bool ok = true;
    for (;;) {
        // Already waiting: it came during the last wait, with the previous
        // chunk (a burst); it goes on at once.
        ssize_t n = ::recv(src, buf.get(), 65536, MSG_DONTWAIT);
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            n = ::recv(src, buf.get(), 65536, 0);
            clock_gettime(CLOCK_MONOTONIC, &due);
            due = add_ns(due, delay_ns);
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            ok = false;
            break;
        }
        if (n == 0) break;
        c->note(from_client, buf.get(), static_cast<size_t>(n));
        if (delay_ns > 0)
            while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, nullptr) == EINTR) {
            }
        if (!send_all(dst, buf.get(), static_cast<size_t>(n))) {
            ok = false;
            break;
        }
    }
    if (ok) {
        ::shutdown(dst, SHUT_WR);
    } else {
        ::shutdown(src, SHUT_RDWR);
        ::shutdown(dst, SHUT_RDWR);
    }
    c->done();
}

[[noreturn]] void die(const char* what) {
    std::fprintf(stderr, "latency-proxy: %s: %s\n", what, std::strerror(errno));
    std::exit(1);
}

}  // namespace

int main(int argc, char** argv) {
    int a = 1;
    const char* listen_addr = "127.0.0.1";
    if (a + 1 < argc && std::strcmp(argv[a], "--listen") == 0) {
        listen_addr = argv[a + 1];
        a += 2;
    }
    if (argc - a < 2 || argc - a > 3) {
        std::fprintf(stderr, "usage: latency-proxy [--listen ADDR] TARGET_PORT RTT_MS [PORTFILE]\n");
        return 2;
    }
    const int target = std::atoi(argv[a]);
    const long delay_ns = static_cast<long>(std::strtod(argv[a + 1], nullptr) * 1e6 / 2);  // one way
    const char* portfile = argc - a == 3 ? argv[a + 2] : nullptr;
    const char* log = std::getenv("LATENCY_PROXY_LOG");

    int lfd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0) die("socket");
    int one = 1;
    ::setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    if (::inet_pton(AF_INET, listen_addr, &addr.sin_addr) != 1) {
        std::fprintf(stderr, "latency-proxy: not an IPv4 address: %s\n", listen_addr);
        return 2;
    }
    if (::bind(lfd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) < 0) die("bind");
    if (::listen(lfd, 256) < 0) die("listen");
    socklen_t len = sizeof addr;
    ::getsockname(lfd, reinterpret_cast<sockaddr*>(&addr), &len);
    const int port = ntohs(addr.sin_port);
    if (portfile) {
        // Written whole, then renamed: a reader never sees half a port.
        const std::string tmp = std::string(portfile) + ".tmp";
        FILE* f = std::fopen(tmp.c_str(), "w");
        if (!f) die(tmp.c_str());
        std::fprintf(f, "%d\n", port);
        std::fclose(f);
        if (std::rename(tmp.c_str(), portfile) != 0) die(portfile);
    } else {
        std::printf("%d\n", port);
        std::fflush(stdout);
    }

    sockaddr_in to{};
    to.sin_family = AF_INET;
    to.sin_port = htons(static_cast<uint16_t>(target));
    to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (;;) {
        int cfd = ::accept4(lfd, nullptr, nullptr, SOCK_CLOEXEC);
        if (cfd < 0) {
            if (errno == EINTR || errno == ECONNABORTED || errno == EMFILE || errno == ENFILE) continue;
            die("accept");
        }
        int sfd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (sfd < 0 || ::connect(sfd, reinterpret_cast<sockaddr*>(&to), sizeof to) < 0) {
            if (sfd >= 0) ::close(sfd);
            ::close(cfd);
            continue;
        }
        ::setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);  // no Nagle delay on libpq's small messages
        ::setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        auto c = std::make_shared<Conn>();
        c->client = cfd;
        c->server = sfd;
        c->log = log;
        std::thread(pipe_dir, c, false, delay_ns).detach();
        std::thread(pipe_dir, c, true, delay_ns).detach();
    }
}
