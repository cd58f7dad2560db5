package jinx.event.poll;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jnr.ffi.LibraryLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import jinx.kernel.EventLoop;
import jinx.kernel.LogLevel;
import jinx.kernel.os.Syscalls;
import jinx.kernel.spi.EventActions;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A signal delivered to the loop's thread while it waits: {@code poll()} fails with {@code EINTR}, which is logged
 * at info in nginx's words and ends the wait with no event handled, so the loop's turn goes on.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 20, threadMode = ThreadMode.SEPARATE_THREAD)
class PollInterruptTest {

    /** The test's own binding: a signal to one thread. */
    public interface Tgkill {
        /**
         * {@code int tgkill(pid_t tgid, pid_t tid, int sig);}
         *
         * @param tgid the process
         * @param tid the thread
         * @param sig the signal
         * @return 0, or -1 with errno set
         */
        int tgkill(int tgid, int tid, int sig);
    }

    @Test
    void anInterruptedWaitIsLoggedAtInfoAndReturns() throws Exception {
        Map<String, String> baseline = PollTesting.baseline();
        Tgkill lib = LibraryLoader.create(Tgkill.class).failImmediately().load("c");
        PollTesting.CapturedLog captured = new PollTesting.CapturedLog(LogLevel.INFO);
        PollEventActions actions = new PollEventActions();
        EventLoop loop = new EventLoop(null, actions, 8, 0, EventLoop.AcceptSettings.SINGLE, captured.log);
        // sun.misc.Signal, reflectively (it is jdk.unsupported): a Java handler makes the JVM catch SIGWINCH
        Class<?> signalClass = Class.forName("sun.misc.Signal");
        Class<?> handlerClass = Class.forName("sun.misc.SignalHandler");
        Method handle = signalClass.getMethod("handle", signalClass, handlerClass);
        Object winch = signalClass.getConstructor(String.class).newInstance("WINCH");
        Object ignore = Proxy.newProxyInstance(handlerClass.getClassLoader(), new Class<?>[] {handlerClass},
            (proxy, method, args) -> null);
        Object old = handle.invoke(null, winch, ignore);
        try {
            AtomicInteger tid = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch started = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                try {
                    String self = Files.readSymbolicLink(Path.of("/proc/thread-self")).toString();
                    tid.set(Integer.parseInt(self.substring(self.lastIndexOf('/') + 1)));
                    started.countDown();
                    actions.processEvents(-1, EventActions.UPDATE_TIME);
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "poll-waiter");
            waiter.start();
            started.await();
            int pid = (int) ProcessHandle.current().pid();
            int sig = Syscalls.signal("WINCH");
            // a signal sent before the thread is inside poll() interrupts nothing: send until the wait ends
            for (int i = 0; i < 40 && waiter.isAlive(); i++) {
                Thread.sleep(50);
                if (lib.tgkill(pid, tid.get(), sig) != 0) {
                    // ESRCH: the thread has just ended, its wait interrupted by the previous signal
                    break;
                }
                waiter.join(50);
            }
            if (waiter.isAlive()) {
                actions.notify(() -> { });
                waiter.join();
            }
            assertNull(failure.get());
            String log = captured.text();
            assertTrue(log.contains("[info]") && log.contains("poll() failed (4: Interrupted system call)"), log);
        } finally {
            handle.invoke(null, winch, old);
            loop.done();
        }
        PollTesting.assertFdsBackTo(baseline);
    }
}
