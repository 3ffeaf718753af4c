package io.quotaflow.quota;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.QuotaSettings;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter alone, on an injected clock, against a provider shaped like the benchmark's (a) and (w):
 * 500 RPM, 200 000 TPM, a bucket holding 5 s that starts full, rate-limit headers taken when a call is
 * admitted, calls of ten tickets (a tenth of one ticket) whose latency grows with their completion
 * tokens, ±20 %, eight calls out at most. A backlog is sent as fast as the limiter allows; over the
 * whole run (the first call to the last) the provider must admit at least 98 % of what it could have
 * (its starting bucket plus its refill), and never a call it has no room for. The pipeline's own
 * delays (batching, the stream thread) are not in it: this is the limiter's share of the whole-run
 * figure.
 */
class QuotaLimiterWholeRunTest {

    private static final long MS = 1_000_000L;
    private static final int RPM = 500;
    private static final int TPM = 200_000;
    private static final int BURST_SECONDS = 5;
    private static final int MAX_IN_FLIGHT = 8;

    /** One call: its cost, when it reaches the provider and when its answer comes back, and the headers it carries. */
    private static final class Call {
        long admission;
        long cost;
        long receivedAt;
        RateLimitInfo headers = RateLimitInfo.EMPTY;
    }

    private record Event(long at, long order, boolean arrival, Call call) {
    }


    @ParameterizedTest(name = "{0}: {1} ms + {2} ms a completion token, seed {3}")
    @CsvSource({
        "(a), 150, 2, 1",
        "(a), 150, 2, 2",
        "(a), 150, 2, 3",
        "(w), 350, 10, 1",
        "(w), 350, 10, 2",
        "(w), 350, 10, 3",
    })
    void shouldUseTheWholeQuotaOfAProviderWhoseHeadersAreTakenAtAdmission(String shape, long baseMs, long perTokenMs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM)).startingAt(0);
        SnapshotProvider provider = new SnapshotProvider(RPM, TPM, BURST_SECONDS);
        PriorityQueue<Event> events = new PriorityQueue<>((x, y) -> x.at != y.at ? Long.compare(x.at, y.at) : Long.compare(x.order, y.order));
        List<Call> inbox = new ArrayList<>();
        long backlog = 400_000;
        long sent = 0;
        long order = 0;
        long firstSend = -1;
        long lastSend = 0;
        int out = 0;
        for (long now = 0; sent < backlog || out > 0; now += 10 * MS) {
            while (!events.isEmpty() && events.peek().at <= now) {
                Event e = events.poll();
                if (e.arrival) {
                    e.call.headers = provider.arrive(e.call.cost, e.at);
                } else {
                    inbox.add(e.call);
                }
            }
            for (Call c : inbox) {
                limiter.reseed(c.headers, c.admission, c.receivedAt, now);
                limiter.answered(c.admission, now);
                out--;
            }
            inbox.clear();
            while (sent < backlog && out < MAX_IN_FLIGHT) {
                int tickets = random.nextInt(10) == 0 ? 1 : 10;
                long completion = tickets * 14L;
                Call c = new Call();
                c.cost = tickets * (150L + random.nextInt(30)) + 60;
                if (!limiter.tryAcquire(Priority.BULK, Charge.call(c.cost - completion, completion), now)) {
                    break;
                }
                c.admission = limiter.lastAdmission();
                long arrival = now + random.nextInt(3) * MS;
                c.receivedAt = arrival + (long) ((baseMs + perTokenMs * completion) * (0.8 + 0.4 * random.nextDouble()) * MS);
                events.add(new Event(arrival, order++, true, c));
                events.add(new Event(c.receivedAt, order++, false, c));
                sent += c.cost;
                out++;
                firstSend = firstSend < 0 ? now : firstSend;
                lastSend = now;
            }
        }
        double feasible = provider.feasible(firstSend, lastSend);

        assertThat(provider.refused).as("calls the provider had no room for (429s)").isZero();
        assertThat(provider.admitted / feasible).as("%s: whole-run use", shape).isGreaterThanOrEqualTo(0.98);
        assertThat(limiter.headerMoment()).isEqualTo(HeaderTiming.Moment.ADMISSION);
    }
}
