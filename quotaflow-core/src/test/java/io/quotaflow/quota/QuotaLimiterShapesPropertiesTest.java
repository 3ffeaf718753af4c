package io.quotaflow.quota;

import io.quotaflow.settings.DailyLimits;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.records.Priority;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Properties of the daily and input/output limits over random arrivals, on an injected epoch clock. */
class QuotaLimiterShapesPropertiesTest {

    private static final long MS = 1_000_000L;
    private static final long START_MS = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
    private static final QuotaSettings WIDE = QuotaSettings.ofDefaults().withRpm(60_000).withTpm(10_000_000);

    /** After {@code gapMs}, a call of {@code prompt} + {@code maxTokens}; refused by the provider when {@code refused}. */
    record Attempt(int gapMs, int prompt, int maxTokens, boolean refused) {
    }

    @Provide
    Arbitrary<List<Attempt>> acrossDays() {
        return Combinators.combine(
                Arbitraries.frequencyOf(
                        net.jqwik.api.Tuple.of(7, Arbitraries.integers().between(10, 60_000)),
                        net.jqwik.api.Tuple.of(3, Arbitraries.integers().between(60_000, 14_400_000))),
                Arbitraries.integers().between(50, 3_000), Arbitraries.integers().between(10, 500),
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(9, Arbitraries.just(false)), net.jqwik.api.Tuple.of(1, Arbitraries.just(true))))
                .as(Attempt::new).list().ofMinSize(50).ofMaxSize(400);
    }

    @Provide
    Arbitrary<List<Attempt>> withinMinutes() {
        return Combinators.combine(
                Arbitraries.integers().between(0, 300), Arbitraries.integers().between(20, 4_000),
                Arbitraries.integers().between(10, 2_000), Arbitraries.just(false))
                .as(Attempt::new).list().ofMinSize(50).ofMaxSize(500);
    }

    /** The budget day of {@code epochMs} computed independently: the UTC date of the instant moved back by the reset hour. */
    private static LocalDate budgetDay(long epochMs, int resetHour) {
        return Instant.ofEpochMilli(epochMs).minusSeconds(resetHour * 3_600L).atZone(ZoneOffset.UTC).toLocalDate();
    }

    @Property(tries = 150)
    void shouldNeverSpendMoreThanTheDailyLimitsInOneBudgetDay(@ForAll("acrossDays") List<Attempt> attempts,
                                                             @ForAll @IntRange(min = 1, max = 40) int rpd,
                                                             @ForAll @IntRange(min = 2_000, max = 60_000) int tpd,
                                                             @ForAll @IntRange(min = 0, max = 23) int resetHour) {
        QuotaLimiter limiter = new QuotaLimiter(WIDE, new DailyLimits(rpd, tpd, resetHour), 0, 0, START_MS * MS);
        Map<LocalDate, long[]> spent = new HashMap<>();
        long nowMs = START_MS + 10_000;
        for (Attempt a : attempts) {
            nowMs += a.gapMs();
            Charge charge = Charge.call(a.prompt(), a.maxTokens());
            if (!limiter.tryAcquire(Priority.INTERACTIVE, charge, nowMs * MS)) {
                continue;
            }
            long[] day = spent.computeIfAbsent(budgetDay(nowMs, resetHour), d -> new long[2]);
            if (a.refused()) {
                // refunded at once: the provider counted nothing
                limiter.refund(charge, nowMs * MS, nowMs * MS + MS);
                continue;
            }
            day[0]++;
            day[1] += charge.tokens();
        }
        spent.forEach((day, used) -> {
            assertThat(used[0]).as("requests on %s", day).isLessThanOrEqualTo(rpd);
            if (used[0] > 1) {
                // (a single call larger than the whole day goes alone, from an untouched day)
                assertThat(used[1]).as("tokens on %s", day).isLessThanOrEqualTo(tpd);
            }
        });
        long lastMs = nowMs;
        limiter.outForDayUntil(lastMs * MS).ifPresent(until -> {
            assertThat(until).isGreaterThan(lastMs).isLessThanOrEqualTo(lastMs + 86_400_000L);
            assertThat(Instant.ofEpochMilli(until).atZone(ZoneOffset.UTC).getHour()).isEqualTo(resetHour);
            assertThat(until % 3_600_000L).isZero();
        });
    }

    @Property(tries = 150)
    void shouldKeepInputAndOutputEachWithinBurstPlusRateTimesWindow(@ForAll("withinMinutes") List<Attempt> attempts,
                                                                   @ForAll @IntRange(min = 6_000, max = 200_000) int inputTpm,
                                                                   @ForAll @IntRange(min = 3_000, max = 100_000) int outputTpm) {
        QuotaLimiter limiter = new QuotaLimiter(WIDE, DailyLimits.NONE, inputTpm, outputTpm, START_MS * MS);
        List<long[]> admitted = new ArrayList<>();
        long now = START_MS * MS;
        for (Attempt a : attempts) {
            now += a.gapMs() * MS;
            if (limiter.tryAcquire(Priority.INTERACTIVE, Charge.call(a.prompt(), a.maxTokens()), now)) {
                admitted.add(new long[] {now, a.prompt(), a.maxTokens()});
            }
        }
        check(admitted, 1, inputTpm * WIDE.safetyFactor() / 60.0, Math.max(1.0, inputTpm * WIDE.safetyFactor() * WIDE.burstSeconds() / 60));
        check(admitted, 2, outputTpm * WIDE.safetyFactor() / 60.0, Math.max(1.0, outputTpm * WIDE.safetyFactor() * WIDE.burstSeconds() / 60));
    }

    /** Every window of admissions holds at most burst + rate × W of column {@code k}, besides the one oversized call a full bucket admits. */
    private static void check(List<long[]> admitted, int k, double rate, double burst) {
        for (int i = 0; i < admitted.size(); i++) {
            long sum = 0;
            long largest = 0;
            for (int j = i; j < admitted.size(); j++) {
                sum += admitted.get(j)[k];
                largest = Math.max(largest, admitted.get(j)[k]);
                double window = (admitted.get(j)[0] - admitted.get(i)[0]) / 1e9;
                long oversized = largest > burst ? largest : 0;
                assertThat(sum - oversized).as("column %d in a %.3f s window", k, window)
                        .isLessThanOrEqualTo((long) Math.ceil(burst + rate * window) + 1);
            }
        }
    }
}
