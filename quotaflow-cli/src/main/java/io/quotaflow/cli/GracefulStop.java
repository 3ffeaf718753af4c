package io.quotaflow.cli;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

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
 *
 * <p>The exit status after a signal is the command's own: the JVM would end a signalled process with
 * 128 + the signal (143 on SIGTERM) whatever the command returned, and {@code System.exit} blocks once
 * the shutdown has begun. So {@code main} hands its status to {@link #exit(int)}, and the signalled hook,
 * once the command has finished, flushes the console and halts the JVM with that status. Halting skips
 * shutdown hooks that have not finished yet; quotaflow registers no other (logback's console appender
 * writes through, the Kafka clients register none).
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

        /** Ends the JVM with {@code status} after a signal: flushes the console, then {@link Runtime#halt}. */
        default void halt(int status) {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(status);
        }

        /** The status {@code main} hands to {@link #exit(int)}, waiting up to {@code wait}; empty when none comes. */
        default Optional<Integer> exitStatus(Duration wait) {
            try {
                return Optional.of(EXIT_STATUS.get(wait.toMillis(), TimeUnit.MILLISECONDS));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            } catch (TimeoutException | ExecutionException noStatus) {
                return Optional.empty();
            }
        }
    }

    /** How long the signalled hook waits for {@code main}'s status once the command has finished. */
    static final Duration EXIT_STATUS_WAIT = Duration.ofSeconds(5);

    /** Set by a hook that a signal started: {@link #exit(int)} hands the status to it instead of exiting. */
    private static final AtomicBoolean SIGNALLED = new AtomicBoolean();
    /** The status {@code main} returns, for the signalled hook. */
    private static final CompletableFuture<Integer> EXIT_STATUS = new CompletableFuture<>();

    private final CountDownLatch stopRequested = new CountDownLatch(1);
    private final CountDownLatch finished = new CountDownLatch(1);
    private final Thread hook;
    private final Hooks hooks;

    private GracefulStop(String name, Runnable requestStop, Duration wait, Hooks hooks) {
        this.hooks = hooks;
        this.hook = new Thread(() -> onSignal(name, requestStop, wait), "quotaflow-" + name + "-shutdown");
    }

    /**
     * The hook: asks the work to stop and waits (bounded) until it has finished, then ends the JVM with
     * the command's status ({@link #exit(int)}); when the work does not finish within {@code wait}, with
     * {@link ExitCodes#FAILURE}. When no {@code main} hands over a status (a command run in a test or
     * embedded), it returns and the JVM goes its own way.
     */
    private void onSignal(String name, Runnable requestStop, Duration wait) {
        SIGNALLED.set(true);
        stopRequested.countDown();
        requestStop.run();
        try {
            if (!finished.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                System.err.printf("quotaflow %s: did not stop within %d s; exiting%n", name, wait.toSeconds());
                hooks.halt(ExitCodes.FAILURE);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        // without a main's status (a command run in a test or embedded) the JVM exits as it would
        hooks.exitStatus(EXIT_STATUS_WAIT).ifPresent(hooks::halt);
    }

    /**
     * {@code main}'s end: exits the JVM with {@code status}; after a signal, hands {@code status} to the
     * signalled hook, which halts the JVM with it (a {@code System.exit} would block in the shutdown).
     */
    public static void exit(int status) {
        if (SIGNALLED.get()) {
            EXIT_STATUS.complete(status);
            return; // the hook halts the JVM; System.exit would block until it does
        }
        System.exit(status);
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
