package io.quotaflow.cli;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Ctrl+C / SIGTERM for a command: the shutdown hook asks the work to stop, then waits (bounded)
 * until the command says it has finished, so what was in hand is committed and the summary printed
 * before the JVM goes. The one copy of the hook-and-latch that every long-running command needs.
 *
 * <pre>{@code
 * try (GracefulStop stop = GracefulStop.install("publish", publisher::requestStop, Duration.ofSeconds(35))) {
 *     ... work until done or stopped ...
 * } // close() marks it finished
 * }</pre>
 */
public final class GracefulStop implements AutoCloseable {

    /** Where the hook is registered: the JVM's shutdown hooks, or a test's stand-in. */
    public interface Hooks {
        /** The JVM's own: {@link Runtime#addShutdownHook} and {@link Runtime#removeShutdownHook}. */
        Hooks RUNTIME = new Hooks() {
            @Override
            public void add(Thread hook) {
                Runtime.getRuntime().addShutdownHook(hook);
            }

            @Override
            public void remove(Thread hook) {
                try {
                    Runtime.getRuntime().removeShutdownHook(hook);
                } catch (IllegalStateException shuttingDown) {
                    // the hook is running: it returns now that the work is finished
                }
            }
        };

        void add(Thread hook);

        /** Removes {@code hook}; does nothing when it is already running. */
        void remove(Thread hook);
    }

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private final Hooks hooks;

    private GracefulStop(String name, Runnable requestStop, Duration wait, Hooks hooks) {
        this.hooks = hooks;
        this.hook = new Thread(() -> {
            stopRequested.countDown();
            requestStop.run();
            try {
                finished.await(wait.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "quotaflow-" + name + "-shutdown");
    }

    /**
     * @param requestStop run on the signal, on the hook's thread: ask the work to stop (it may also
     *                    do the stopping itself, then return)
     * @param wait        how long the hook waits for {@link #close()} before the JVM exits anyway
     */
    public static GracefulStop install(String name, Runnable requestStop, Duration wait) {
        return install(name, requestStop, wait, Hooks.RUNTIME);
    }

    /** As above, with the hook registered in {@code hooks} (tests run it themselves). */
    public static GracefulStop install(String name, Runnable requestStop, Duration wait, Hooks hooks) {
        GracefulStop stop = new GracefulStop(name, Objects.requireNonNull(requestStop, "requestStop"),
                Objects.requireNonNull(wait, "wait"), Objects.requireNonNull(hooks, "hooks"));
        hooks.add(stop.hook);
        return stop;
    }

    /** Blocks until a stop was requested (for commands that run until stopped). */
    public void awaitStopRequest() throws InterruptedException {
        stopRequested.await();
    }

    /** The work is done: the hook may let the JVM go; outside a shutdown, the hook is removed. */
    @Override
    public void close() {
        finished.countDown();
        hooks.remove(hook);
    }
}
