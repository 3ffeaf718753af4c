package io.quotaflow.cli;

import java.time.Duration;
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
final class GracefulStop implements AutoCloseable {

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;

    private GracefulStop(String name, Runnable requestStop, Duration wait) {
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
    static GracefulStop install(String name, Runnable requestStop, Duration wait) {
        GracefulStop stop = new GracefulStop(name, requestStop, wait);
        Runtime.getRuntime().addShutdownHook(stop.hook);
        return stop;
    }

    /** Blocks until a stop was requested (for commands that run until stopped). */
    void awaitStopRequest() throws InterruptedException {
        stopRequested.await();
    }

    /** The work is done: the hook may let the JVM go; outside a shutdown, the hook is removed. */
    @Override
    public void close() {
        finished.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: it returns now that the work is finished
        }
    }
}
