/*
 * libjinxio: the hot-path calls of the loop (recv, send, writev, sendfile), each returning -errno on failure
 * instead of setting errno, as Netty's JNI transport does. jnr-ffi then calls them without saving errno (the
 * binding is loaded with IgnoreError): jffi's errno save costs a pthread_getspecific and two calls per syscall.
 * The calls go through syscall(2), which is not a cancellation point: glibc's recv() and writev() switch
 * asynchronous cancellation on and off around the system call in every multi-threaded process, and a JVM is one.
 * errno is read in the same C function that made the call, so nothing can change it in between.
 */
#include <errno.h>
#include <stddef.h>
#include <sys/socket.h>
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

/* writev with MSG_MORE: sendmsg(2) over the same iovec array, the flags given */
long jinx_writevMore(int fd, const struct iovec *iov, int iovcnt, int flags)
{
    struct msghdr msg = {0};
    msg.msg_iov = (struct iovec *) iov;
    msg.msg_iovlen = iovcnt;
    long n = syscall(SYS_sendmsg, fd, &msg, flags);
    return n < 0 ? -errno : n;
}

long jinx_sendfile(int out_fd, int in_fd, off_t *offset, size_t count)
{
    long n = syscall(SYS_sendfile, out_fd, in_fd, offset, count);
    return n < 0 ? -errno : n;
}
