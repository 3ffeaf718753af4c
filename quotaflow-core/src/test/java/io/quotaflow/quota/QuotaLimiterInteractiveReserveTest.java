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
 * The limiter alone, on an injected clock, against (x)'s provider (as {@link QuotaLimiterWholeRunTest}'s
 * (w): 500 RPM, 200 000 TPM, a bucket holding 5 s, headers taken when a call is admitted, ~2 s calls of
 * ten tickets), with a bulk backlog sent as fast as the limiter allows and an interactive ticket every
 * 2 to 3 s, alone in its call. The provider may count prompts up to {@code mismatch} more than we
 * estimate (another tokenizer), which the answers correct as the pipeline does. Interactive tickets
 * must go at once: the re-seeds that lower the level under load (their snapshot's uncounted calls are
 * subtracted with a margin) must not take their reserve, as they did before bulk left what the
 * lowerings took (eleven waits, up to 0.57 s, on four of these runs). Told what of the backlog waits
 * behind each bulk call, as the dispatcher tells it, the backlog's last calls spend what the lowerings
 * added (never the reserve): the whole run uses more of the quota, and an interactive ticket every
 * 100 ms in the seconds after the backlog, when that extra is spent, still goes at once.
 */
class QuotaLimiterInteractiveReserveTest {

    private static final long MS = 1_000_000L;
    private static final int RPM = 500;
    private static final int TPM = 200_000;
    private static final int BURST_SECONDS = 5;
    private static final int MAX_IN_FLIGHT = 8;

    private static final class Call {
        long admission;
        long estimatedPrompt;
        long prompt;
        long completion;
        long receivedAt;
        RateLimitInfo headers = RateLimitInfo.EMPTY;
    }

    private record Event(long at, long order, boolean arrival, Call call) {
    }


    @ParameterizedTest(name = "seed {0}, prompts counted up to {1} more than estimated, what waits told: {2}")
    @CsvSource({
        "1, 0.0, false",
        "2, 0.0, false",
        "1, 0.15, false",
        "2, 0.15, false",
        "3, 0.15, false",
        "1, 0.0, true",
        "2, 0.0, true",
        "1, 0.15, true",
        "2, 0.15, true",
        "3, 0.15, true",
    })
    void shouldSendEveryInteractiveTicketAtOnceWhileABulkBacklogUsesTheQuota(long seed, double mismatch, boolean told) {
        Run run = new Run(seed, mismatch, told);
        for (long now = 0; run.sent < Run.BACKLOG || run.out > 0 || now < run.lastSend + Run.AFTER_BACKLOG; now += 10 * MS) {
            run.deliver(now);
            run.answer(now);
            run.interactive(now);
            run.bulk(now);
        }
        double feasible = run.provider.feasible(run.firstSend, run.lastSend);

        assertThat(run.provider.refused).as("calls the provider had no room for (429s)").isZero();
        assertThat(run.waits).as("interactive tickets").hasSizeGreaterThanOrEqualTo(18);
        assertThat(run.waits).as("ms each interactive ticket waited for the limiter").allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(200));
        assertThat(run.waits.stream().filter(w -> w > 0).count()).as("interactive tickets that waited at all").isLessThanOrEqualTo(2);
        // a one-minute backlog: what bulk leaves for interactive work is a larger share of it than of a long run
        // told, the backlog's last calls spend what lowerings added to the reserve (0.966-0.968 untold, 0.951 with seed 1 and a mismatch)
        assertThat((run.provider.admitted - run.afterBacklog) / feasible).as("whole-run use").isGreaterThanOrEqualTo(told ? 0.97 : 0.94);
    }

    /**
     * Bulk work trickling in at {@code share} of the limit instead of a backlog, each call telling the
     * limiter what else has arrived and waits: the queue stays short, so bulk holds back little of what
     * lowerings added to the reserve all along. Interactive tickets must still go at once. Bulk here
     * mostly waits for its tickets rather than for capacity: with no reserve at all, only the case at
     * 1.1 of the limit fails.
     */
    @ParameterizedTest(name = "seed {0}, bulk arriving at {1} of the limit")
    @CsvSource({
        "1, 1.0",
        "3, 1.05",
        "1, 1.1",
        "2, 1.2",
    })
    void shouldSendEveryInteractiveTicketAtOnceWhileBulkTricklesInAtTheLimit(long seed, double share) {
        Run run = new Run(seed, 0.15, true);
        run.trickle = TPM / 60.0 * share / 1e9;
        for (long now = 0; run.sent < Run.BACKLOG || run.out > 0 || now < run.lastSend + Run.AFTER_BACKLOG; now += 10 * MS) {
            run.deliver(now);
            run.answer(now);
            run.interactive(now);
            run.bulk(now);
        }

        assertThat(run.provider.refused).as("calls the provider had no room for (429s)").isZero();
        assertThat(run.waits).as("interactive tickets").hasSizeGreaterThanOrEqualTo(18);
        assertThat(run.waits).as("ms each interactive ticket waited for the limiter").allSatisfy(w -> assertThat(w).isLessThanOrEqualTo(200));
        assertThat(run.waits.stream().filter(w -> w > 0).count()).as("interactive tickets that waited at all").isLessThanOrEqualTo(2);
    }

    /** One run: the limiter, the provider, the calls in the air, and the interactive tickets' waits. */
    private static final class Run {
        static final long BACKLOG = 200_000;
        final SplittableRandom random;
        /** Interactive tickets keep coming this long after the backlog's last call. */
        static final long AFTER_BACKLOG = 5_000 * MS;
        final double mismatch;
        /** Whether each bulk call tells the limiter what of the backlog waits behind it, as the dispatcher does. */
        final boolean told;
        final QuotaLimiter limiter = TestLimiters.of(QuotaSettings.ofDefaults().withRpm(RPM).withTpm(TPM)).startingAt(0);
        final SnapshotProvider provider = new SnapshotProvider(RPM, TPM, BURST_SECONDS);
        final PriorityQueue<Event> events = new PriorityQueue<>((x, y) -> x.at != y.at ? Long.compare(x.at, y.at)
                : Long.compare(x.order, y.order));
        final List<Call> inbox = new ArrayList<>();
        final List<Long> waits = new ArrayList<>();
        long sent;
        long order;
        long firstSend = -1;
        long lastSend;
        int out;
        long nextInteractive = 10_000 * MS;
        /** What the provider admitted of the interactive calls sent once the backlog was out. */
        long afterBacklog;
        /** Bulk tokens arriving per nanosecond; 0: the whole backlog waits from the start. */
        double trickle;
        /** The next bulk call, drawn and waiting for its tickets to arrive or for room. */
        Call nextBulk;
        long waitingSince = -1;
        /** What the answers taught of the provider's count, as CostCalibration does (never below 1). */
        double calibration = 1.0;

        Run(long seed, double mismatch, boolean told) {
            this.random = new SplittableRandom(seed);
            this.mismatch = mismatch;
            this.told = told;
        }

        /** Calls reach the provider; answers reach us. */
        void deliver(long now) {
            while (!events.isEmpty() && events.peek().at <= now) {
                Event e = events.poll();
                if (e.arrival) {
                    e.call.headers = provider.arrive(e.call.prompt + e.call.completion, e.at);
                } else {
                    inbox.add(e.call);
                }
            }
        }

        /** The answers, in the order ProviderModel applies one. */
        void answer(long now) {
            for (Call c : inbox) {
                limiter.overestimated(c.estimatedPrompt, c.prompt, now);
                limiter.reseed(c.headers, c.admission, c.receivedAt, now);
                limiter.answered(c.admission, now);
                limiter.reconcile(c.estimatedPrompt, c.prompt, now);
                calibration = 0.9 * calibration + 0.1 * c.prompt / (double) c.estimatedPrompt * calibration;
                out--;
            }
            inbox.clear();
        }

        /** An interactive ticket every 2 to 3 s while the backlog lasts, in one of the planner's extra calls. */
        void interactive(long now) {
            if ((sent < BACKLOG || now < lastSend + AFTER_BACKLOG) && waitingSince < 0 && now >= nextInteractive) {
                waitingSince = now;
                // after the backlog, when its last calls may have spent what lowerings added to the reserve, one every 100 ms
                nextInteractive = now + (sent < BACKLOG ? 2_000 * MS + random.nextInt(1_000) * MS : 100 * MS);
            }
            if (waitingSince < 0 || out >= MAX_IN_FLIGHT + 2) {
                return;
            }
            Call c = call(random, 1, mismatch, calibration);
            if (limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(c.estimatedPrompt, c.completion), now)) {
                order = send(limiter, c, now, random, events, order);
                out++;
                if (sent >= BACKLOG) {
                    afterBacklog += c.prompt + c.completion;
                }
                waits.add((now - waitingSince) / MS);
                waitingSince = -1;
            }
        }

        /** The backlog, as fast as the limiter allows. */
        void bulk(long now) {
            long arrived = trickle > 0 ? Math.min(BACKLOG, (long) (trickle * now)) : BACKLOG;
            while (sent < BACKLOG && out < MAX_IN_FLIGHT) {
                if (nextBulk == null) {
                    nextBulk = call(random, random.nextInt(10) == 0 ? 1 : 10, mismatch, calibration);
                }
                Call c = nextBulk;
                long behind = arrived - sent - c.estimatedPrompt - c.completion;
                if (behind < 0 && arrived < BACKLOG) {
                    return;
                }
                behind = Math.max(0, behind);
                Charge after = told ? new Charge((behind + 1_499) / 1_500, behind, behind, 0) : QuotaLimiter.UNKNOWN_AFTER;
                if (!limiter.tryAcquire(Priority.BULK, Charge.call(c.estimatedPrompt, c.completion), after, now)) {
                    return;
                }
                nextBulk = null;
                order = send(limiter, c, now, random, events, order);
                sent += c.estimatedPrompt + c.completion;
                out++;
                firstSend = firstSend < 0 ? now : firstSend;
                lastSend = now;
            }
        }
    }

    /** A call of {@code tickets} tickets whose prompt our tokenizer counts up to {@code mismatch} low, times {@code calibration}. */
    private static Call call(SplittableRandom random, int tickets, double mismatch, double calibration) {
        Call c = new Call();
        c.completion = tickets * 14L;
        c.prompt = tickets * (136L + random.nextInt(30)) + 60;
        c.estimatedPrompt = Math.round(c.prompt * (1.0 - mismatch * random.nextDouble()) * Math.max(1.0, calibration));
        return c;
    }

    /** Sends {@code c}: it reaches the provider within 2 ms and is answered after 350 ms + 10 ms a completion token, ±20 %. */
    private static long send(QuotaLimiter limiter, Call c, long now, SplittableRandom random, PriorityQueue<Event> events, long order) {
        c.admission = limiter.lastAdmission();
        long arrival = now + random.nextInt(3) * MS;
        c.receivedAt = arrival + (long) ((350 + 10 * c.completion) * (0.8 + 0.4 * random.nextDouble()) * MS);
        events.add(new Event(arrival, order, true, c));
        events.add(new Event(c.receivedAt, order + 1, false, c));
        return order + 2;
    }
}
