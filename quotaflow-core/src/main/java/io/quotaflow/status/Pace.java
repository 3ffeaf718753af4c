package io.quotaflow.status;

import java.util.ArrayDeque;
import java.util.Optional;

/**
 * What a scope admitted over the last minute and how long its calls took: the measured side of
 * the ETA. Rates are taken between the first and the last admission in the window, so an idle
 * stretch before a backlog does not dilute them. Used on the stream thread only; times in epoch ms.
 */
public final class Pace {

    /** The window rates are measured over. */
    public static final long WINDOW_MS = 60_000;
    /** Fewer admissions than this, or over less time than {@link #MIN_SPAN_MS}: nothing measured yet. */
    static final int MIN_ADMISSIONS = 3;
    static final long MIN_SPAN_MS = 2_000;
    private static final int LATENCIES = 64;

    private record Admission(long at, int tickets, long tokens) {
    }

    private final ArrayDeque<Admission> admissions = new ArrayDeque<>();
    private final ArrayDeque<Long> latencies = new ArrayDeque<>();
    private long latencySum;

    /** A call of {@code tickets} tickets of {@code tokens} estimated tokens was admitted at {@code at}. */
    public void admitted(long at, int tickets, long tokens) {
        admissions.addLast(new Admission(at, tickets, tokens));
        trim(at);
    }

    /** A call's answer took {@code latencyMs}. */
    public void answered(long latencyMs) {
        if (latencyMs < 0) {
            return;
        }
        latencies.addLast(latencyMs);
        latencySum += latencyMs;
        if (latencies.size() > LATENCIES) {
            latencySum -= latencies.removeFirst();
        }
    }

    /** The mean latency of the last calls, 0 when none answered. */
    public long latencyMs() {
        return latencies.isEmpty() ? 0 : latencySum / latencies.size();
    }

    /** The rates measured at {@code now}, if there is enough history. */
    public Optional<Eta.Rates> measured(long now) {
        trim(now);
        if (admissions.size() < MIN_ADMISSIONS) {
            return Optional.empty();
        }
        long span = admissions.peekLast().at() - admissions.peekFirst().at();
        if (span < MIN_SPAN_MS) {
            return Optional.empty();
        }
        long tokens = 0;
        long tickets = 0;
        boolean first = true;
        for (Admission a : admissions) {
            if (!first) {
                tokens += a.tokens();
                tickets += a.tickets();
            }
            first = false;
        }
        double seconds = span / 1000.0;
        return Optional.of(new Eta.Rates(Math.max(1e-6, tokens / seconds), Math.max(1e-6, tickets / seconds), latencyMs(), true));
    }

    /** The measured rates, or {@code fallback} while there is no history. */
    public Eta.Rates rates(long now, Eta.Rates fallback) {
        return measured(now).orElse(fallback);
    }

    private void trim(long now) {
        while (!admissions.isEmpty() && admissions.peekFirst().at() < now - WINDOW_MS) {
            admissions.removeFirst();
        }
    }
}
