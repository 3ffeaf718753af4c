package io.quotaflow.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class FailoverFiguresTest {

    private static final long TPM = 60_000; // 1 000 tokens a second

    /** A scope admitting 1 000 tokens every second from t=1 s while {@code busy} says so, sampled every 500 ms up to 40 s. */
    private static ScopeTimeline scope(java.util.function.LongPredicate busy) {
        ScopeTimeline t = new ScopeTimeline();
        long requests = 0;
        for (long ms = 0; ms <= 40_000; ms += 500) {
            if (ms >= 1_000 && ms % 1_000 == 0 && busy.test(ms)) {
                requests++;
            }
            t.add(ms, requests, requests * 1_000);
        }
        return t;
    }

    private static FailoverFigures.OwnerSnapshot owners(long at, String... byPartition) {
        Map<Integer, String> m = new java.util.TreeMap<>();
        for (int i = 0; i < byPartition.length; i++) {
            if (byPartition[i] != null) {
                m.put(i, byPartition[i]);
            }
        }
        return new FailoverFigures.OwnerSnapshot(at, m);
    }

    @Test
    void shouldTimeTheKilledInstancesScopesUntilTheyAdmitAgainAndSplitTheQuotaUse() {
        // two scopes: s0 on fo-1 keeps going to 40 s; s1 on fo-2, killed at 10.2 s, admits again at 17 s on fo-1
        List<ScopeTimeline> timelines = List.of(scope(ms -> true), scope(ms -> ms <= 10_000 || ms >= 17_000));
        List<FailoverFigures.Quota> quotas = List.of(new FailoverFigures.Quota(TPM, 0), new FailoverFigures.Quota(TPM, 0));
        List<FailoverFigures.OwnerSnapshot> owners = List.of(owners(5_000, "fo-1", "fo-2"), owners(12_000, "fo-1", "fo-2"),
                owners(16_500, "fo-1", "fo-1"), owners(30_000, "fo-1", "fo-1"));
        FailoverFigures f = FailoverFigures.compute(timelines, quotas, 10_200, "fo-2", owners);
        assertThat(f.victimScopes()).containsExactly(1);
        assertThat(f.secondsToAdmit()).containsEntry(1, 6.8);
        assertThat(f.maxSecondsToAdmit()).isEqualTo(6.8);
        assertThat(f.allWithin(10)).isTrue();
        assertThat(f.ownerAfter()).containsEntry(1, "fo-1");
        assertThat(f.firstCallMs()).isEqualTo(1_000);
        assertThat(f.lastCallMs()).isEqualTo(40_000);
        // before the kill both scopes admitted 1 000 tokens a second, counted from their first call
        assertThat(f.useBefore()).isCloseTo(20_000 / (2 * 1_000 * 9.201), within(1e-3));
        // after it the kept scope admitted 30 of 29.8 s, the moved one 24
        assertThat(f.useAfterKept()).isCloseTo(30_000 / 29_800.0, within(1e-9));
        assertThat(f.useAfterMoved()).isCloseTo(24_000 / 29_800.0, within(1e-9));
        assertThat(f.useAfter()).isCloseTo(54_000 / 59_600.0, within(1e-9));
        assertThat(f.useRun()).isCloseTo((40_000 + 34_000) / (2 * 1_000 * 39.001), within(1e-3));
        assertThat(f.ownerChanges()).isEqualTo(1);
        assertThat(f.victimScopesBack()).isZero();
    }

    @Test
    void shouldSayNeverForAScopeThatDidNotAdmitAgainAndCountTheStartLevelOnceOverTheRun() {
        List<ScopeTimeline> timelines = List.of(scope(ms -> ms <= 10_000));
        FailoverFigures f = FailoverFigures.compute(timelines, List.of(new FailoverFigures.Quota(TPM, 5_000)), 10_200, "fo-1",
                List.of(owners(9_000, "fo-1")));
        assertThat(f.secondsToAdmit()).containsEntry(0, null);
        assertThat(f.maxSecondsToAdmit()).isNull();
        assertThat(f.allWithin(1_000)).isFalse();
        assertThat(f.useRun()).isCloseTo(10_000 / (5_000 + 9_001.0), within(1e-9));
        assertThat(f.useAfter()).isNaN();
    }

    @Test
    void shouldCountOwnerChangesAfterTheKillAndTheScopesARestartedInstanceGotBack() {
        List<FailoverFigures.OwnerSnapshot> owners = new ArrayList<>(List.of(
                owners(1_000, "fo-1", "fo-2", "fo-3"), owners(2_000, "fo-2", "fo-2", "fo-3"), // a move before the kill: not counted
                owners(6_000, "fo-2", "fo-2", "fo-3"), owners(9_000, "fo-2", null, "fo-3"), // no owner for a moment: skipped
                owners(12_000, "fo-3", "fo-1", "fo-3"), owners(20_000, "fo-2", "fo-2", "fo-3")));
        assertThat(FailoverFigures.ownerChanges(owners, 5_000)).isEqualTo(4);
        assertThat(FailoverFigures.victimScopes(owners, 5_000, "fo-2")).containsExactly(0, 1);
        assertThat(FailoverFigures.busiest(owners.get(0))).isEqualTo("fo-1");
        assertThat(FailoverFigures.busiest(owners.get(1))).isEqualTo("fo-2");
        assertThat(FailoverFigures.ownerAt(owners, 1, 9_500)).isEqualTo("fo-1");
        assertThat(FailoverFigures.ownerAt(owners, 1, 50_000)).isEqualTo("fo-2");
        // a last snapshot taken mid-rebalance, without owners, does not hide who has the scopes
        owners.add(owners(21_000));
        assertThat(FailoverFigures.backAtEnd(owners, List.of(0, 1), "fo-2")).isEqualTo(2);
        assertThat(FailoverFigures.backAtEnd(owners, List.of(0, 1, 2), "fo-3")).isEqualTo(1);
    }
}
