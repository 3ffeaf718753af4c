package io.quotaflow.status;

import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.Optional;

/**
 * What a scope admitted lately and how long its calls took: the measured side of the ETA. While the
 * limits bind, rates are what the provider admitted since the limiter first held the scope back, over a
 * decaying window ({@link HeldRate}). Otherwise they are taken over the admissions of the last
 * {@link #RECENT_MS} (the last {@link #WINDOW_MS} while those are too few), between the first and the
 * last of them, so an idle stretch before a backlog does not
 * dilute them and a start that was slower than the route's steady pace (a full bucket's burst, a
 * {@code max_tokens} budget still being learned, a cold client) is soon forgotten; and never above the
 * limits ({@link AdmittedRate}). Used on the stream thread only; times in epoch ms.
 */
public final class Pace {

    /** The longest window rates are measured over. */
    public static final long WINDOW_MS = 60_000;
    /** The window rates are measured over when it holds enough admissions. */
    public static final long RECENT_MS = 20_000;
    /** Fewer admissions than this, or over less time than {@link #MIN_SPAN_MS}: nothing measured yet. */
    static final int MIN_ADMISSIONS = 3;
    static final long MIN_SPAN_MS = 2_000;
    private static final int LATENCIES = 64;

    private record Admission(long at, int tickets, long tokens, long charged) {
    }

    private final ArrayDeque<Admission> admissions = new ArrayDeque<>();
    private final HeldRate held = new HeldRate();
    private final ArrayDeque<Long> latencies = new ArrayDeque<>();
    private long latencySum;

    /** A call of {@code tickets} tickets of {@code tokens} estimated tokens was admitted at {@code at}, charged nothing known. */
    public void admitted(long at, int tickets, long tokens) {
        admitted(at, tickets, tokens, 0);
    }

    /**
     * A call of {@code tickets} tickets of {@code tokens} estimated tokens was admitted at {@code at};
     * the limiter charged it {@code charged} tokens (0: unknown).
     */
    public void admitted(long at, int tickets, long tokens, long charged) {
        admissions.addLast(new Admission(at, tickets, tokens, Math.max(0, charged)));
        held.admitted(at, tickets, tokens);
        trim(at);
    }

    /** The limiter held the scope's next call back at {@code at}: the limits bind. */
    public void held(long at) {
        held.held(at);
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

    /** The rates measured at {@code now}, if there is enough history, without a ceiling. */
    public Optional<Eta.Rates> measured(long now) {
        return measured(now, AdmittedRate.Ceiling.NONE);
    }

    /**
     * The rates measured at {@code now}, if there is enough history: while the limits bind, what the
     * provider admitted since the limiter first held the scope back ({@link HeldRate}), whatever the
     * limiter charged; otherwise the admissions of the last seconds held to {@code ceiling}.
     */
    public Optional<Eta.Rates> measured(long now, AdmittedRate.Ceiling ceiling) {
        trim(now);
        if (held.binding()) {
            Optional<Eta.Rates> binding = held.rates(latencyMs());
            if (binding.isPresent()) {
                return binding;
            }
        }
        Optional<AdmittedRate.Sums> sums = sums(now - RECENT_MS);
        if (sums.isEmpty()) {
            sums = sums(now - WINDOW_MS);
        }
        return sums.flatMap(s -> AdmittedRate.of(s, ceiling, latencyMs()));
    }

    /** The measured rates, or {@code fallback} while there is no history. */
    public Eta.Rates rates(long now, Eta.Rates fallback) {
        return measured(now).orElse(fallback);
    }

    /** The measured rates held to {@code ceiling}, or {@code fallback} while there is no history. */
    public Eta.Rates rates(long now, AdmittedRate.Ceiling ceiling, Eta.Rates fallback) {
        return measured(now, ceiling).orElse(fallback);
    }

    /** The admissions at or after {@code from}, the first left out, if they are enough. */
    private Optional<AdmittedRate.Sums> sums(long from) {
        Iterator<Admission> it = admissions.descendingIterator();
        long last = -1;
        long first = -1;
        int n = 0;
        long calls = 0;
        long tickets = 0;
        long tokens = 0;
        long charged = 0;
        Admission earliest = null;
        while (it.hasNext()) {
            Admission a = it.next();
            if (a.at() < from) {
                break;
            }
            if (last < 0) {
                last = a.at();
            }
            first = a.at();
            n++;
            calls++;
            tickets += a.tickets();
            tokens += a.tokens();
            charged += a.charged();
            earliest = a;
        }
        if (n < MIN_ADMISSIONS || last - first < MIN_SPAN_MS) {
            return Optional.empty();
        }
        // the rate runs from the first admission: its own call is not part of it
        return Optional.of(new AdmittedRate.Sums((last - first) / 1000.0, calls - 1, tickets - earliest.tickets(),
                tokens - earliest.tokens(), charged - earliest.charged()));
    }

    private void trim(long now) {
        while (!admissions.isEmpty() && admissions.peekFirst().at() < now - WINDOW_MS) {
            admissions.removeFirst();
        }
    }
}
