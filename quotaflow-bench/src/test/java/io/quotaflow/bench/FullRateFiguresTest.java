package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.LongUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FullRateFiguresTest {

    private static final long TPM = 60_000; // 1 000 tokens a second

    /** A scope admitting {@code tokensAt(ms)} tokens at each whole second from 1 s to 80 s, sampled every 100 ms. */
    private static ScopeTimeline scope(LongUnaryOperator tokensAt) {
        ScopeTimeline t = new ScopeTimeline();
        long requests = 0;
        long tokens = 0;
        for (long ms = 0; ms <= 80_000; ms += 100) {
            if (ms >= 1_000 && ms % 1_000 == 0) {
                long n = tokensAt.applyAsLong(ms);
                if (n > 0) {
                    requests++;
                    tokens += n;
                }
            }
            t.add(ms, requests, tokens);
        }
        return t;
    }

    private static FailoverFigures.OwnerSnapshot owners(long at, String s0, String s1) {
        return new FailoverFigures.OwnerSnapshot(at, Map.of(0, s0, 1, s1));
    }

    @Test
    void shouldTimeAMovedScopeFromItsRestoreUntilATenSecondWindowHoldsNinetyPercentOfItsKey() {
        // s0 stays on fo-1 at its key's rate; s1 (fo-2, killed at 20.2 s) is restored at 27 s, then runs at 60 % of
        // its key until 50 s and at its full rate after it
        List<ScopeTimeline> timelines = List.of(scope(ms -> 1_000), scope(ms -> ms <= 20_000 ? 1_000 : ms < 27_000 ? 0
                : ms < 50_000 ? 600 : 1_000));
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(TPM, 0), new FailoverFigures.Quota(TPM, 0));
        FailoverFigures f = FailoverFigures.compute(timelines, quotas, 20_200, "fo-2",
                List.of(owners(10_000, "fo-1", "fo-2"), owners(30_000, "fo-1", "fo-1")));
        FullRateFigures r = FullRateFigures.compute(timelines, quotas, f);

        assertThat(f.secondsToAdmit()).containsEntry(1, 6.8);
        // the first window (t, t + 10 s] with 9 000 tokens: from 47 s, two seconds at 600 and eight at 1 000 (9 200)
        assertThat(r.secondsToFullRate()).containsOnlyKeys(1);
        assertThat(r.secondsToFullRate()).containsEntry(1, 20.0);
        assertThat(r.maxSecondsToFullRate()).isEqualTo(r.secondsToFullRate().get(1));
        // from its restore (27 s) to its last call (80 s): 23 s at 600, 31 s at 1 000 over 53 s of its key
        assertThat(r.useAfterRestore().get(1)).isCloseTo((23 * 600 + 31 * 1_000) / 53_000.0, within(0.01));
        assertThat(r.useRunPerScope().get(0)).isCloseTo(1.0, within(0.02));
        assertThat(r.useRunPerScope().get(1)).isLessThan(r.useRunPerScope().get(0));
        // the per-10-s table: the kept scope's 10 000 a window, the moved one's gap
        assertThat(r.tokensPer10s().get(0).get(1)).isEqualTo(10_000);
        assertThat(r.tokensPer10s().get(1).get(2)).isLessThan(5_000);
        assertThat(r.tableMarkdown()).contains("| s | s0 | s1 |", "| 10 | 10,000 |");
        assertThat(r.text()).startsWith("s1 20.0 s (84.5 %)");
    }

    @Test
    void shouldNotCountAKeyIdleAfterItsScopeRanOutOfWorkInTheUseOverEachKeysOwnWork() {
        // s0 runs at its key's rate and runs out of work at 40 s; s1 runs at its rate to 80 s
        List<ScopeTimeline> timelines = List.of(scope(ms -> ms <= 40_000 ? 1_000 : 0), scope(ms -> 1_000));
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(TPM, 0), new FailoverFigures.Quota(TPM, 0));
        FailoverFigures f = FailoverFigures.compute(timelines, quotas, 20_200, "fo-2",
                List.of(owners(10_000, "fo-1", "fo-2"), owners(30_000, "fo-1", "fo-2")));
        FullRateFigures r = FullRateFigures.compute(timelines, quotas, f);
        assertThat(r.useRunPerScope().get(0)).as("over the run, s0 idle for its last 40 s").isCloseTo(0.5, within(0.02));
        assertThat(r.useOwnWork()).as("each key over its own work: both at their rate").isCloseTo(1.0, within(0.02));
        assertThat(r.perScopeText()).contains("the keys over each one's own work (the run's first call to its last): "
                + FailoverResult.pct(r.useOwnWork())).endsWith("the most the run could reach with these keys' work and hand-over: "
                + FailoverResult.pct(r.useBound()));
    }

    @Test
    void shouldSayNeverWhenAMovedScopeNeverReachedNinetyPercentBeforeItsWorkRanOut() {
        List<ScopeTimeline> timelines = List.of(scope(ms -> 1_000), scope(ms -> ms <= 20_000 ? 1_000 : ms < 27_000 ? 0 : 800));
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(TPM, 0), new FailoverFigures.Quota(TPM, 0));
        FailoverFigures f = FailoverFigures.compute(timelines, quotas, 20_200, "fo-2",
                List.of(owners(10_000, "fo-1", "fo-2"), owners(30_000, "fo-1", "fo-1")));
        FullRateFigures r = FullRateFigures.compute(timelines, quotas, f);
        assertThat(r.secondsToFullRate()).containsEntry(1, null);
        assertThat(r.maxSecondsToFullRate()).isNull();
        assertThat(r.text()).contains("s1 never");
    }

    /**
     * The bound: two keys of 60 000 TPM (1 000 tokens/s, 5 000 at the start), 100 000 tokens of work each, the second
     * moved with 7.5 s between the kill and its restore. At the client's most each is busy (100 000 - 1 960) / 0.98 ms
     * (its 2 s burst at once, then 980 tokens/s), the moved one 5.5 s longer (its gap less the 2 s burst it is credited):
     * 105 541 ms, when the two keys could have admitted 2 x (105 541 + 5 000).
     */
    @Test
    void shouldBoundTheUseOverTheRunByTheCeilingsTheBurstAndTheMovedKeysGap() {
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(60_000, 5_000), new FailoverFigures.Quota(60_000, 5_000));
        double end = (100_000 - 1_960) / 0.98 + 5_500;
        assertThat(FullRateFigures.bound(List.of(100_000L, 100_000L), quotas, java.util.Map.of(1, 7_500L)))
                .isCloseTo(200_000 / (2 * (end + 5_000)), org.assertj.core.data.Offset.offset(1e-9))
                .isCloseTo(0.9046, org.assertj.core.data.Offset.offset(1e-4));
        assertThat(FullRateFigures.bound(List.of(100_000L, 100_000L), quotas, java.util.Map.of()))
                .as("no gap: the ceiling, the safety factor and the provider's larger starting bucket only")
                .isCloseTo(200_000 / (2 * ((100_000 - 1_960) / 0.98 + 5_000)), org.assertj.core.data.Offset.offset(1e-9));
    }

    /**
     * Limits learned from the headers: a key spends the provider's starting 5 000 tokens at once, then 980 tokens/s, and a
     * moved key's 7.5 s gap is shortened by the 5.1 s that bucket holds again: (100 000 - 5 000) / 0.98 + 2 398 ms.
     */
    @Test
    void shouldBoundLearnedLimitsByTheProvidersBucketNotTheLocalBurst() {
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(60_000, 5_000), new FailoverFigures.Quota(60_000, 5_000));
        double end = (100_000 - 5_000) / 0.98 + (7_500 - 5_000 / 0.98);
        double learned = FullRateFigures.bound(List.of(100_000L, 100_000L), quotas, java.util.Map.of(1, 7_500L), false);
        assertThat(learned).isCloseTo(200_000 / (2 * (end + 5_000)), org.assertj.core.data.Offset.offset(1e-9));
        assertThat(learned).isGreaterThan(FullRateFigures.bound(List.of(100_000L, 100_000L), quotas, java.util.Map.of(1, 7_500L), true));
    }
}
