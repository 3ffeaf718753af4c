package io.quotaflow.quota;

import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter against a provider whose buckets it does not see, on an injected clock: calls take
 * 50 ms to 3 s, overtake each other on the way there and back (0–40 ms each way), and the provider
 * takes an answer's headers anywhere between the call's arrival and its response. Two-way
 * re-seeding from those headers (raises included) must never send a call the provider's bucket
 * cannot take: no 429, whatever the order, whether or not the limiter has learned when the headers
 * are taken ({@link HeaderTiming}).
 */
class RacingProviderPropertiesTest {

    private static final long MS = 1_000_000L;
    private static final int TPM = 600_000;
    private static final int RPM = 60_000;

    /** The provider's two buckets, refilled at the true limit and capped at {@code burstSeconds} of it. */
    private static final class Provider {
        final double tokenCapacity;
        final double requestCapacity;
        double tokens;
        double requests;
        long last;

        Provider(int burstSeconds, double startLevel) {
            tokenCapacity = TPM / 60.0 * burstSeconds;
            requestCapacity = RPM / 60.0 * burstSeconds;
            tokens = tokenCapacity * startLevel;
            requests = requestCapacity * startLevel;
        }

        void refill(long now) {
            double seconds = (now - last) / 1e9;
            tokens = Math.min(tokenCapacity, tokens + TPM / 60.0 * seconds);
            requests = Math.min(requestCapacity, requests + RPM / 60.0 * seconds);
            last = now;
        }

        /** A call arrives: charged its own count of it; returns whether the buckets had room for it (else: a 429). */
        boolean arrive(Call call, double countShare) {
            double cost = Math.ceil(call.cost * countShare);
            boolean room = tokens + 1e-6 >= cost && requests + 1e-6 >= 1;
            tokens -= cost;
            requests -= 1;
            return room;
        }

        /** The x-ratelimit-* headers as they stand now. */
        RateLimitInfo headers() {
            return new RateLimitInfo(OptionalLong.of(RPM), OptionalLong.of(TPM),
                    OptionalLong.of((long) Math.max(0, Math.floor(requests))), OptionalLong.of((long) Math.max(0, Math.floor(tokens))),
                    Optional.empty(), Optional.empty(), Optional.empty());
        }
    }

    /** One call on its way: when each of its events happens, and what the provider's headers said. */
    private static final class Call {
        final long sequence;
        final long sentAt;
        final long cost;
        long receivedAt;
        RateLimitInfo headers = RateLimitInfo.EMPTY;

        Call(long sequence, long sentAt, long cost) {
            this.sequence = sequence;
            this.sentAt = sentAt;
            this.cost = cost;
        }
    }

    private enum Kind { ARRIVAL, HEADERS, RECEIPT }

    private record Event(long at, long order, Kind kind, Call call) {
    }

    /**
     * A provider that takes its headers at a different moment of each call (here: early in most of the first
     * few) once passed for an admission snapshot on six pairs of answers, and the refill credited on that
     * belief was a 429 within 2.5 s ({@link HeaderTiming} now also weighs the middle).
     */
    @Example
    void shouldNotTakeAProviderWhoseHeaderMomentVariesForAnAdmissionSnapshot() {
        shouldNeverSendACallTheProviderCannotTakeWhateverOrderCallsArriveIn(14, 20, 2, false, 100, 40, 0);
    }

    /**
     * A fixed seed, so that a build is deterministic; to explore further, run it with another seed
     * ({@code -Djqwik.seeds.whenfixed=ALLOW} keeps this one) or more tries.
     *
     * @param headerMode 0: headers taken on arrival; 1: at the response; 2: anywhere in between
     * @param countPercent what the provider counts of a call, in percent of our charge (its own
     *                     tokenizer): the headers' figures then order calls by costs we do not know
     * @param transitMs    the most a call's trip takes each way, under the limiter's 500 ms bound:
     *                     a call sent that much earlier may still arrive after a later one
     */
    @Property(tries = 500, seed = "20261202")
    void shouldNeverSendACallTheProviderCannotTakeWhateverOrderCallsArriveIn(
            @ForAll @IntRange(min = 1, max = 60) int providerBurstSeconds,
            @ForAll @IntRange(min = 0, max = 100) int startPercent,
            @ForAll @IntRange(min = 0, max = 2) int headerMode,
            @ForAll boolean fullSafety,
            @ForAll @IntRange(min = 50, max = 100) int countPercent,
            @ForAll @IntRange(min = 1, max = 450) int transitMs,
            @ForAll long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        QuotaSettings settings = QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM).withSafetyFactor(fullSafety ? 1.0 : 0.98);
        QuotaLimiter limiter = TestLimiters.of(settings).startingAt(0);
        Provider provider = new Provider(providerBurstSeconds, startPercent / 100.0);
        PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.at != b.at ? Long.compare(a.at, b.at)
                : Long.compare(a.order, b.order));
        long[] order = {0};
        List<Call> inbox = new ArrayList<>();
        long refused = 0;
        long admittedTokens = 0;
        for (long now = 0; now <= 30_000 * MS; now += 10 * MS) {
            while (!events.isEmpty() && events.peek().at <= now) {
                Event e = events.poll();
                provider.refill(e.at);
                if (e.kind == Kind.ARRIVAL) {
                    refused += provider.arrive(e.call, countPercent / 100.0) ? 0 : 1;
                } else if (e.kind == Kind.HEADERS) {
                    e.call.headers = provider.headers();
                } else {
                    inbox.add(e.call);
                }
            }
            // the stream thread: every answer received since the last punctuation, in the order received
            for (Call c : inbox) {
                long latencyMs = (c.receivedAt - c.sentAt) / MS;
                limiter.reseed(c.headers, c.sequence, Math.min(c.sentAt + latencyMs * MS, now), now);
                limiter.answered(c.sequence, now);
            }
            inbox.clear();
            for (int i = 0; i < 5; i++) {
                long cost = 300 + random.nextInt(5_700);
                if (!limiter.tryAcquire(Priority.INTERACTIVE, Charge.unsplit(cost), now)) {
                    break;
                }
                admittedTokens += cost;
                send(new Call(limiter.lastAdmission(), now, cost), headerMode, transitMs, random, events, order);
            }
        }
        assertThat(refused).as("calls that reached the provider without room (429s)").isZero();
        if (headerMode == 1) {
            // headers taken at the response are never taken for a snapshot at admission (the other mistake only costs quota)
            assertThat(limiter.headerMoment()).isNotEqualTo(HeaderTiming.Moment.ADMISSION);
        }
        assertThat(admittedTokens).isPositive();
    }

    /** Schedules a call's arrival, the moment the provider takes its headers, and its receipt. */
    private static void send(Call call, int headerMode, int transitMs, SplittableRandom random, PriorityQueue<Event> events, long[] order) {
        long arrival = call.sentAt + random.nextInt(transitMs) * MS + random.nextInt(1_000_000);
        long response = arrival + (50 + random.nextInt(2_950)) * MS;
        double u = headerMode == 0 ? 0 : headerMode == 1 ? 1 : random.nextDouble();
        long headersAt = arrival + (long) (u * (response - arrival));
        call.receivedAt = response + random.nextInt(transitMs) * MS + random.nextInt(1_000_000);
        events.add(new Event(arrival, order[0]++, Kind.ARRIVAL, call));
        events.add(new Event(headersAt, order[0]++, Kind.HEADERS, call));
        events.add(new Event(call.receivedAt, order[0]++, Kind.RECEIPT, call));
    }
}
