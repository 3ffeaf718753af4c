package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantSettings;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The queue's orderings kept as it changes (docs/design.md, "Bounds"): per-tick reads touch the front only. */
class PendingQueueBoundsTest {

    private static PendingQueue.Ref ref(String id, String tenant, int tokens, long at) {
        return RefBuilder.ref(id).tenant(tenant).tokens(tokens).at(at).build();
    }

    @Test
    void shouldListTheFirstTicketsInTheOrderTheyWillBeProposed() {
        PendingQueue q = new PendingQueue(TenantSettings.builder().weight("gold", 3).build(), 0);
        for (int i = 0; i < 200; i++) {
            q.add(Priority.BULK, ref("g" + i, "gold", 100, i));
            q.add(Priority.BULK, ref("t" + i, "tin", 101, i));
        }
        q.add(Priority.INTERACTIVE, ref("i0", "tin", 50, 500));
        List<String> listed = q.served(40).stream().map(e -> e.getValue().id()).toList();

        List<String> proposed = new ArrayList<>();
        for (int call = 0; call < 40; call++) {
            PendingQueue.Proposal p = q.propose(1, prio -> 100_000, Long.MAX_VALUE, call).orElseThrow();
            proposed.add(p.refs().get(0).id());
            q.admit(p, call);
        }
        assertThat(listed).startsWith("i0").isEqualTo(proposed);
        assertThat(listed.stream().filter(id -> id.startsWith("g")).count()).as("3:1 by weight").isBetween(28L, 31L);
    }

    @Test
    void shouldKeepCountsTokensAgesAndDepthsAsTicketsComeAndGo() {
        PendingQueue q = new PendingQueue(TenantSettings.NONE, 0);
        for (int i = 0; i < 1_000; i++) {
            q.add(Priority.STANDARD, ref("a" + i, "a", 10, 1_000 + i));
        }
        for (int i = 0; i < 10; i++) {
            q.add(Priority.STANDARD, ref("b" + i, "b", 20, 500 + i));
        }
        assertThat(q.tokens(Priority.STANDARD)).isEqualTo(10_000 + 200);
        assertThat(q.oldest(Priority.STANDARD)).contains(500L);
        assertThat(q.deepest(1)).containsExactly(Map.entry("a", 1_000));
        q.matching(r -> r.tenant().equals("b")).forEach(r -> q.remove(r.id()));
        assertThat(q.oldest(Priority.STANDARD)).contains(1_000L);
        q.replace(Priority.STANDARD, ref("a0", "a", 30, 1_000));
        assertThat(q.tokens(Priority.STANDARD)).isEqualTo(10_020);
        assertThat(q.remove("a0")).isPresent();
        assertThat(q.oldest(Priority.STANDARD)).contains(1_001L);
        assertThat(q.tenantsWaiting()).isEqualTo(1);
        assertThat(q.depth("b")).isZero();
    }

    @Test
    void shouldProposeAndListInTimeThatDoesNotGrowWithTheTenantsOrTheBacklog() {
        PendingQueue small = filled(20, 5);
        PendingQueue large = filled(20_000, 5);
        long smallNs = timePerCall(small);
        long largeNs = timePerCall(large);
        // a thousand times the tenants and tickets: linear work would be ~1000x; allow for noise and the log
        assertThat(largeNs).as("ns per propose+served: 20 tenants %d, 20 000 tenants %d", smallNs, largeNs)
                .isLessThan(Math.max(smallNs, 20_000) * 50);
    }

    private static PendingQueue filled(int tenants, int each) {
        PendingQueue q = new PendingQueue(TenantSettings.NONE, 28);
        for (int i = 0; i < each; i++) {
            for (int t = 0; t < tenants; t++) {
                q.add(Priority.BULK, ref("t" + t + "-" + i, "t" + t, 100 + (t % 7), (long) i * tenants + t));
            }
        }
        return q;
    }

    private static long timePerCall(PendingQueue q) {
        for (int warm = 0; warm < 2_000; warm++) {
            q.propose(10, p -> 100_000, Long.MAX_VALUE, 0);
            q.served(100);
        }
        long start = System.nanoTime();
        for (int i = 0; i < 2_000; i++) {
            q.propose(10, p -> 100_000, Long.MAX_VALUE, 0);
            q.served(100);
        }
        return (System.nanoTime() - start) / 2_000;
    }

    @Test
    void shouldJoinANewTenantAtTheLowestServiceWithoutReadingTheOthers() {
        PendingQueue q = new PendingQueue(TenantSettings.NONE, 0);
        q.add(Priority.BULK, ref("a1", "a", 100, 1));
        q.add(Priority.BULK, ref("a2", "a", 100, 2));
        q.admit(q.propose(1, p -> 1_000, Long.MAX_VALUE, 0).orElseThrow(), 0);
        q.add(Priority.BULK, ref("late1", "late", 100, 3));
        q.add(Priority.BULK, ref("late2", "late", 100, 4));
        // late joins at a's service (100): a2 and late1 tie on 200 and late, never served, goes first
        assertThat(q.served(3)).extracting(e -> e.getValue().id()).containsExactly("late1", "a2", "late2");
    }
}
