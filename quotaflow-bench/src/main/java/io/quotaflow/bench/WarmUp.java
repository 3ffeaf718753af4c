package io.quotaflow.bench;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * When benchmark (i) has warmed up enough to measure. A pipeline runs for hours, so its per-ticket
 * cost is that of compiled code; but the broker, Kafka Streams, RocksDB's bindings, Jackson and
 * quotaflow are a lot of code, and on two cores the JIT compilers kept half a core busy through
 * a single 10 000-ticket warm-up and the measured run after it (thread CPU times, /proc). Each
 * throw-away run of {@link #TICKETS} tickets was faster than the one before (1,460, 2,559, 2,983,
 * 3,637 and 3,780 tickets/s in one JVM). So (i) warms up until a run is within {@link #SETTLED} of
 * the one before it, at least {@link #MIN_RUNS} and at most {@link #MAX_RUNS} runs, and says how
 * each went.
 */
final class WarmUp {

    /** A measured run smaller than this gets no warm-up (it is too short to measure a speed). */
    static final int MIN_MEASURED_TICKETS = 20_000;
    /** Tickets of each throw-away run. */
    static final int TICKETS = 25_000;
    static final int MIN_RUNS = 2;
    static final int MAX_RUNS = 6;
    /** A run at most this much faster than the one before means the JIT has settled. */
    static final double SETTLED = 0.05;

    private WarmUp() {
    }

    /** Whether the throw-away runs so far, at {@code rates} tickets/s in order, are enough. */
    static boolean done(List<Double> rates) {
        int n = rates.size();
        if (n >= MAX_RUNS) {
            return true;
        }
        if (n < MIN_RUNS) {
            return false;
        }
        double last = rates.get(n - 1);
        double before = rates.get(n - 2);
        return before > 0 && last <= before * (1 + SETTLED);
    }

    /**
     * The note on the cold run, measured the same way as the warm one: cold when no pipeline ran in
     * this JVM before it ({@code runsBefore} 0, as with {@code --scenario i} alone).
     */
    static String describeCold(Double ticketsPerSecond, Double drain, int tickets, int runsBefore) {
        return String.format(Locale.ROOT, "cold: %,d tickets, %s: %s tickets/s from first publish to last result (%s after the "
                + "last publish)", tickets, runsBefore(runsBefore), rate(ticketsPerSecond), rate(drain));
    }

    /** The note on the run through {@code quotaflow run} in a fresh JVM of its own, the broker and the simulator warm. */
    static String describeFreshJvm(Double ticketsPerSecond, Double drain, int tickets, List<String> jvmArgs) {
        return String.format(Locale.ROOT, "fresh pipeline JVM: %,d tickets through `quotaflow run` in a JVM of its own (%s), started for "
                + "them (the broker and the simulator warm): %s tickets/s from first publish to last result (%s after the last publish)",
                tickets, String.join(" ", jvmArgs), rate(ticketsPerSecond), rate(drain));
    }

    /** Whether a run is the first of its JVM. */
    static String runsBefore(int runs) {
        return runs == 0 ? "the first pipeline run in a fresh JVM"
                : String.format(Locale.ROOT, "after %d pipeline runs in this JVM (not a fresh JVM: run --scenario i alone)", runs);
    }

    private static String rate(Double value) {
        return value == null ? "–" : String.format(Locale.ROOT, "%,.0f", value);
    }

    /** The note on the measured row: how many throw-away runs, and how fast each was. */
    static String describe(List<Double> rates) {
        return String.format(Locale.ROOT, "measured after %d warm-up runs of %,d tickets in the same JVM, at %s tickets/s",
                rates.size(), TICKETS, rates.stream().map(r -> String.format(Locale.ROOT, "%,.0f", r))
                        .collect(Collectors.joining(", ")));
    }
}
