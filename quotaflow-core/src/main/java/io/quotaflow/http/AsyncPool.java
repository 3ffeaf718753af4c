package io.quotaflow.http;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;

/**
 * The JDK's {@link java.net.http.HttpClient} with an executor of its own completes every {@code sendAsync} through
 * {@link CompletableFuture}'s default executor. That is the common {@link ForkJoinPool} only when the pool has at
 * least two threads; with one (the JVM gives it one core fewer than it sees, so on two cores or fewer), it is a new
 * thread per task: a thread started and ended for every model call's answer (about 2,300 in a 20,000-ticket run of
 * benchmark (i) on two cores). {@link #useCommonPool()} asks for two threads before anything reads the setting, so
 * the answers are handed on by two pooled threads instead. The entry points call it first; a setting given on the
 * command line ({@value #PARALLELISM}) is kept.
 */
public final class AsyncPool {

    /** The JDK's system property for the common pool's size. */
    public static final String PARALLELISM = "java.util.concurrent.ForkJoinPool.common.parallelism";

    private AsyncPool() {
    }

    /** Sets {@value #PARALLELISM} to two when it is unset and this JVM sees two cores or fewer; call it before any other code. */
    public static void useCommonPool() {
        parallelismFor(Runtime.getRuntime().availableProcessors(), System.getProperty(PARALLELISM))
                .ifPresent(value -> System.setProperty(PARALLELISM, value));
    }

    /** The common pool's size to ask for on {@code cores} cores, given the property as set ({@code configured}, or null). */
    static Optional<String> parallelismFor(int cores, String configured) {
        // the common pool has cores - 1 threads: with fewer than two, CompletableFuture starts a thread per task
        return configured == null && cores - 1 < 2 ? Optional.of("2") : Optional.empty();
    }

    /** Whether {@link CompletableFuture}'s async steps run on a pool here, rather than each on a new thread. */
    public static boolean pooled() {
        return new CompletableFuture<Void>().defaultExecutor() instanceof ForkJoinPool;
    }
}
