/*
 * libjinxio: the hot-path calls of the loop (epoll_wait, recv, send, writev, sendfile, and a static file's open,
 * fstat and close), each returning -errno on failure instead of setting errno, as Netty's JNI transport does.
 * jnr-ffi then calls them without saving errno (the binding is loaded with IgnoreError): jffi's errno save costs a
 * pthread_getspecific and two calls per syscall. The calls go through syscall(2), which is not a cancellation
 * point: glibc's epoll_wait(), recv(), writev(), open() and close() switch asynchronous cancellation on and off
 * around the system call in every multi-threaded process, and a JVM is one.
 * errno is read in the same C function that made the call, so nothing can change it in between.
 * Three calls make more than one system call each, which the loop would otherwise make from Java one by one: a
 * static file's open and fstat; a response's header and its file's first bytes; the wait and the reads ahead of the
 * keep-alive connections it returns. Each call from Java costs the loop about 0.14 us beyond its system call,
 * mostly the full fence JDK 17 makes as a native call returns.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

long jinx_recv(int fd, void *buf, size_t len, int flags)
{
    long n = syscall(SYS_recvfrom, fd, buf, len, flags, NULL, NULL);
    return n < 0 ? -errno : n;
}

long jinx_send(int fd, const void *buf, size_t len, int flags)
{
    long n = syscall(SYS_sendto, fd, buf, len, flags, NULL, 0);
    return n < 0 ? -errno : n;
}

long jinx_writev(int fd, const void *iov, int iovcnt)
{
    long n = syscall(SYS_writev, fd, iov, iovcnt);
    return n < 0 ? -errno : n;
}

/*
 * writev(2) for a socket, as send(2): sendto(2) of one buffer, of the array gathered on the stack when it is small
 * (a response's header and a short body), sendmsg(2) of the array otherwise, with the flags given (MSG_NOSIGNAL,
 * MSG_MORE before a file). The socket calls skip the VFS write path that writev takes (the file position lookup,
 * rw_verify_area, the security and fsnotify hooks) and sendto skips the iovec import as well: 2-3 % less CPU per
 * hello request on loopback, where the kernel's TCP work is most of it; copying 200 bytes costs far less.
 */
#define JINX_GATHER_MAX 1024

long jinx_sendv(int fd, const struct iovec *iov, int iovcnt, int flags)
{
    long n;
    if (iovcnt == 1) {
        n = syscall(SYS_sendto, fd, iov[0].iov_base, iov[0].iov_len, flags, NULL, 0);
        return n < 0 ? -errno : n;
    }
    size_t total = 0;
    for (int i = 0; i < iovcnt && total <= JINX_GATHER_MAX; i++) {
        total += iov[i].iov_len;
    }
    if (total <= JINX_GATHER_MAX) {
        char buf[JINX_GATHER_MAX];
        size_t off = 0;
        for (int i = 0; i < iovcnt; i++) {
            memcpy(buf + off, iov[i].iov_base, iov[i].iov_len);
            off += iov[i].iov_len;
        }
        n = syscall(SYS_sendto, fd, buf, total, flags, NULL, 0);
        return n < 0 ? -errno : n;
    }
    struct msghdr msg = {0};
    msg.msg_iov = (struct iovec *) iov;
    msg.msg_iovlen = iovcnt;
    n = syscall(SYS_sendmsg, fd, &msg, flags);
    return n < 0 ? -errno : n;
}

long jinx_sendfile(int out_fd, int in_fd, off_t *offset, size_t count)
{
    long n = syscall(SYS_sendfile, out_fd, in_fd, offset, count);
    return n < 0 ? -errno : n;
}

/*
 * A header and the file after it: jinx_sendv of the array with MSG_MORE (so that TCP puts the file's first bytes
 * in the header's segment) and MSG_NOSIGNAL, then, once all of it went, sendfile(2) of the file's part: from
 * part[0] (which the kernel advances), part[1] bytes at most. Returns the bytes of both, or -errno when the
 * array's call failed. When the file's call fails or sends nothing, the array's bytes alone: the caller then calls
 * sendfile again by itself, to learn why (a full socket, an error, a file cut short). Five arguments: jnr-ffi
 * 2.2.17's fast invokers pass a sixth wrongly, and a seventh makes each call allocate.
 */
long jinx_sendv_file(int fd, const struct iovec *iov, int iovcnt, int in_fd, off_t *part)
{
    size_t total = 0;
    for (int i = 0; i < iovcnt; i++) {
        total += iov[i].iov_len;
    }
    long n = jinx_sendv(fd, iov, iovcnt, MSG_MORE | MSG_NOSIGNAL);
    if (n < 0 || (size_t) n < total) {
        return n;
    }
    long m = syscall(SYS_sendfile, fd, in_fd, &part[0], (size_t) part[1]);
    return m <= 0 ? n : n + m;
}

/* open(2) as glibc makes it (openat with AT_FDCWD), without the cancellation switch and the errno save */
int jinx_open(const char *path, int flags, int mode)
{
    long n = syscall(SYS_openat, AT_FDCWD, path, flags, mode);
    return n < 0 ? -errno : (int) n;
}

/* the kernel's struct stat is glibc's on the 64-bit Linux targets (x86_64, aarch64), which the probe reads */
int jinx_fstat(int fd, struct stat *buf)
{
    long n = syscall(SYS_fstat, fd, buf);
    return n < 0 ? -errno : 0;
}

/*
 * jinx_open, then jinx_fstat of what it opened: the descriptor, or -errno when open failed; when fstat failed, the
 * descriptor closed again and -(JINX_FSTAT_FAILED | errno).
 */
#define JINX_FSTAT_FAILED 0x10000

int jinx_open_stat(const char *path, int flags, int mode, struct stat *buf)
{
    int fd = jinx_open(path, flags, mode);
    if (fd < 0) {
        return fd;
    }
    int rc = jinx_fstat(fd, buf);
    if (rc < 0) {
        syscall(SYS_close, fd);
        return -(JINX_FSTAT_FAILED | -rc);
    }
    return fd;
}

int jinx_close(int fd)
{
    long n = syscall(SYS_close, fd);
    return n < 0 ? -errno : 0;
}

/*
 * epoll_wait(2), for the epoll module's binding. aarch64 has only epoll_pwait, which without a signal mask is the
 * same call (the kernel reads the mask's size only with a mask).
 */
int jinx_epoll_wait(int epfd, void *events, int maxevents, int timeout)
{
#ifdef SYS_epoll_wait
    long n = syscall(SYS_epoll_wait, epfd, events, maxevents, timeout);
#else
    long n = syscall(SYS_epoll_pwait, epfd, events, maxevents, timeout, NULL, sizeof(unsigned long));
#endif
    return n < 0 ? -errno : (int) n;
}

/*
 * A read ahead in the wait, for connections waiting for their next request (keep-alive): jinx_epoll_wait, then for
 * each returned event that can read (EPOLLIN, EPOLLERR, EPOLLHUP) and whose data.u64 the table holds for its slot
 * (data >> 1), recvfrom(2) of at most the entry's size into the area, one after the other. The event spends the
 * entry, read or not (its data set to all ones, which no registration has; the size stays, for the loop to read):
 * the loop arms it again when the connection waits again. results[i] gets the read's
 * offset in the area in its upper 32 bits and its count or -errno in the lower, or JINX_NOT_READ. Each read saves
 * the loop a call from Java, about 0.14 us of CPU beyond the system call on JDK 17 (its fence as a native call
 * returns), one per keep-alive request.
 */
#define JINX_NOT_READ INT64_MIN

struct jinx_preread_entry {
    uint64_t data;
    int32_t fd;
    int32_t size;
};

struct jinx_preread {
    int64_t table;      /* struct jinx_preread_entry[slots] */
    int64_t area;
    int64_t results;    /* int64_t[maxevents] */
    int32_t slots;
    int32_t area_size;
};

int jinx_epoll_wait_preread(int epfd, void *events, int maxevents, int timeout, struct jinx_preread *p)
{
    int n = jinx_epoll_wait(epfd, events, maxevents, timeout);
    struct epoll_event *ev = events;
    struct jinx_preread_entry *table = (struct jinx_preread_entry *) (intptr_t) p->table;
    char *area = (char *) (intptr_t) p->area;
    int64_t *results = (int64_t *) (intptr_t) p->results;
    int64_t off = 0;
    for (int i = 0; i < n; i++) {
        results[i] = JINX_NOT_READ;
        uint64_t data = ev[i].data.u64;
        uint64_t slot = data >> 1;
        if ((ev[i].events & (EPOLLIN | EPOLLERR | EPOLLHUP)) == 0 || slot >= (uint64_t) p->slots) {
            continue;
        }
        struct jinx_preread_entry *e = &table[slot];
        if (e->size == 0 || e->data != data) {
            continue;
        }
        e->data = UINT64_MAX;
        if (off + e->size > p->area_size) {
            continue;
        }
        long rc = syscall(SYS_recvfrom, e->fd, area + off, (size_t) e->size, 0, NULL, NULL);
        if (rc < 0) {
            if (errno == EINTR) {
                continue;
            }
            rc = -errno;
        }
        results[i] = (int64_t) ((uint64_t) off << 32 | (uint32_t) rc);
        if (rc > 0) {
            off += rc;
        }
    }
    return n;
}
