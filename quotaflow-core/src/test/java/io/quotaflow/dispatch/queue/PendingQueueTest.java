package io.quotaflow.dispatch.queue;

import io.quotaflow.records.Priority;
import io.quotaflow.settings.TenantSettings;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PendingQueueTest {

    private static PendingQueue.Ref ref(String id, String tenant, int tokens, long at) {
        return RefBuilder.ref(id).tenant(tenant).tokens(tokens).at(at).build();
    }

    /** A queue of tenants of weight 1, none capped, a ticket's cost its prompt tokens. */
    private static PendingQueue queue() {
        return new PendingQueue(TenantSettings.NONE, 0);
    }

    private static List<String> ids(PendingQueue.Proposal p) {
        return p.refs().stream().map(PendingQueue.Ref::id).toList();
    }

    @Test
    void shouldProposeTheHighestClassFirst() {
        PendingQueue q = queue();
        q.add(Priority.BULK, ref("b1", "t", 10, 1));
        q.add(Priority.INTERACTIVE, ref("i1", "t", 10, 2));
        q.add(Priority.STANDARD, ref("s1", "t", 10, 3));
        PendingQueue.Proposal p = q.propose(10, prio -> 1_000, Long.MAX_VALUE, 0).orElseThrow();
        assertThat(p.priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(ids(p)).containsExactly("i1");
        assertThat(q.size()).as("proposing removes nothing").isEqualTo(3);
        q.remove(p);
        assertThat(q.propose(10, prio -> 1_000, Long.MAX_VALUE, 0).orElseThrow().priority()).isEqualTo(Priority.STANDARD);
    }

    @Test
    void shouldTakeTenantsInTurnWithinTheItemAndTokenCaps() {
        PendingQueue q = queue();
        for (int i = 0; i < 5; i++) {
            q.add(Priority.BULK, ref("noisy-" + i, "noisy", 100, i));
        }
        q.add(Priority.BULK, ref("quiet-0", "quiet", 100, 10));
        assertThat(ids(q.propose(4, prio -> 10_000, Long.MAX_VALUE, 0).orElseThrow())).containsExactlyInAnyOrder("noisy-0", "quiet-0", "noisy-1", "noisy-2");
        PendingQueue.Proposal capped = q.propose(10, prio -> 250, Long.MAX_VALUE, 0).orElseThrow();
        assertThat(capped.refs()).hasSize(2);
        assertThat(capped.tokens()).isEqualTo(200);
    }

    @Test
    void shouldAlwaysTakeTheFirstTicketEvenOverTheCaps() {
        PendingQueue q = queue();
        q.add(Priority.STANDARD, RefBuilder.ref("huge").tokens(9_000).at(1).bytes(900_000).build());
        q.add(Priority.STANDARD, ref("small", "t", 10, 2));
        PendingQueue.Proposal p = q.propose(10, prio -> 1_000, 512 * 1024, 0).orElseThrow();
        assertThat(ids(p)).containsExactly("huge");
    }

    @Test
    void shouldHonourATicketsBatchCap() {
        PendingQueue q = queue();
        q.add(Priority.STANDARD, RefBuilder.ref("alone").at(1).batchCap(1).attempt(1).build());
        q.add(Priority.STANDARD, ref("other", "t", 10, 2));
        assertThat(ids(q.propose(10, prio -> 1_000, Long.MAX_VALUE, 0).orElseThrow())).containsExactly("alone");
    }

    @Test
    void shouldKeepAnUpdatedTicketsPlace() {
        PendingQueue q = queue();
        q.add(Priority.STANDARD, ref("a", "t", 10, 1));
        q.add(Priority.STANDARD, ref("b", "t", 10, 2));
        q.replace(Priority.STANDARD, ref("a", "t", 20, 3));
        PendingQueue.Proposal p = q.propose(1, prio -> 1_000, Long.MAX_VALUE, 0).orElseThrow();
        assertThat(ids(p)).containsExactly("a");
        assertThat(p.tokens()).isEqualTo(20);
        assertThat(q.remove("b")).isPresent();
        assertThat(q.contains("b")).isFalse();
    }

    @Test
    void shouldLingerOnlyWhileABatchIsNotFullAndItsOldestTicketIsYoung() {
        PendingQueue.Proposal two = new PendingQueue.Proposal(Priority.BULK, List.of(ref("a", "t", 100, 1_000), ref("b", "t", 100, 1_500)), 200);
        assertThat(two.mayLinger(1_000, 10, 1_000, 1_900)).isTrue();
        assertThat(two.mayLinger(1_000, 10, 1_000, 2_000)).as("the oldest waited its linger").isFalse();
        assertThat(two.mayLinger(1_000, 2, 1_000, 1_900)).as("full by items").isFalse();
        assertThat(two.mayLinger(1_000, 10, 250, 1_900)).as("80 % of the token cap").isFalse();
        assertThat(two.mayLinger(0, 10, 1_000, 1_900)).as("no linger (interactive)").isFalse();
    }

    @Test
    void shouldShareAdmittedTokensByWeightAcrossBatchesWhateverTheTicketSizes() {
        PendingQueue q = new PendingQueue(io.quotaflow.settings.TenantSettings.builder().weight("gold", 3).build(), 50);
        for (int i = 0; i < 3_000; i++) {
            q.add(Priority.BULK, ref("gold-" + i, "gold", 400, i));
            q.add(Priority.BULK, ref("tin-" + i, "tin", 60, i));
        }
        java.util.Map<String, Long> admitted = new java.util.HashMap<>();
        for (int call = 0; call < 300; call++) {
            PendingQueue.Proposal p = q.propose(8, prio -> 2_000, Long.MAX_VALUE, 1_000L + call).orElseThrow();
            q.admit(p, 1_000L + call).forEach((t, tokens) -> admitted.merge(t, tokens, Long::sum));
        }
        assertThat(q.size(Priority.BULK)).as("both still backlogged").isGreaterThan(3_000);
        double ratio = (double) admitted.get("gold") / admitted.get("tin");
        assertThat(ratio).as("gold 450 tokens a ticket, tin 110; weights 3:1").isBetween(2.85, 3.15);
    }

    @Test
    void shouldSkipACappedTenantUntilItsBucketRefillsAndServeTheOthers() {
        PendingQueue q = new PendingQueue(io.quotaflow.settings.TenantSettings.builder().tpm("noisy", 600).build(), 0);
        for (int i = 0; i < 10; i++) {
            q.add(Priority.STANDARD, ref("noisy-" + i, "noisy", 300, i));
        }
        long t0 = 1_700_000_000_000L;
        PendingQueue.Proposal first = q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0).orElseThrow();
        assertThat(ids(first)).containsExactly("noisy-0", "noisy-1");
        q.admit(first, t0);
        assertThat(q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0 + 1_000)).as("held, not dropped").isEmpty();
        assertThat(q.heldByCap("noisy", t0 + 1_000)).isTrue();
        q.add(Priority.BULK, ref("quiet-0", "quiet", 300, 20));
        assertThat(ids(q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0 + 1_000).orElseThrow()))
                .as("a held class yields to the next").containsExactly("quiet-0");
        assertThat(ids(q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0 + 30_000).orElseThrow()))
                .as("10 tokens a second: 300 after 30 s").containsExactly("noisy-2");
        assertThat(q.size()).isEqualTo(9);
        assertThat(q.depthByTenant()).containsEntry("noisy", 8).containsEntry("quiet", 1);
        assertThat(q.recentShares(t0 + 1_000)).containsEntry("noisy", 1.0);
    }

    @Test
    void shouldCountATicketOnceAgainstItsTenantsCapWhenItWaitsAgainAfterACallThatDidNotAnswerIt() {
        PendingQueue q = new PendingQueue(io.quotaflow.settings.TenantSettings.builder().rpm("capped", 2).build(), 0);
        long t0 = 1_700_000_000_000L;
        q.add(Priority.INTERACTIVE, ref("a", "capped", 10, 1));
        q.add(Priority.INTERACTIVE, ref("b", "capped", 10, 2));
        q.add(Priority.INTERACTIVE, ref("c", "capped", 10, 3));
        PendingQueue.Proposal first = q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0).orElseThrow();
        assertThat(ids(first)).as("two tickets a minute, both at once").containsExactly("a", "b");
        q.admit(first, t0);
        assertThat(q.heldByCap("capped", t0)).isTrue();

        // the call was cut at max_tokens: both wait again, already paid for, ahead of c, which is not
        PendingQueue.Ref paidA = new PendingQueue.Ref("a", "capped", 10, 1, 0, 0, 100, false, 0, true);
        PendingQueue.Ref paidB = new PendingQueue.Ref("b", "capped", 10, 2, 0, 0, 100, false, 0, true);
        q.add(Priority.INTERACTIVE, paidA);
        q.add(Priority.INTERACTIVE, paidB);
        assertThat(q.heldByCap("capped", t0 + 1)).as("the head was paid for").isFalse();
        PendingQueue.Proposal again = q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0 + 1).orElseThrow();
        assertThat(ids(again)).as("sent again at once; c still waits for the bucket").containsExactlyInAnyOrder("a", "b");
        q.admit(again, t0 + 1);
        assertThat(q.heldByCap("capped", t0 + 29_000)).as("the bucket is where the first call left it: 1 in 30 s").isTrue();
        assertThat(ids(q.propose(10, prio -> 100_000, Long.MAX_VALUE, t0 + 30_001).orElseThrow())).containsExactly("c");
    }

    @Test
    void shouldShareByWeightWithHeavyTailedTicketsAndOversizedOnesGoingAlone() {
        PendingQueue q = new PendingQueue(io.quotaflow.settings.TenantSettings.builder().weight("gold", 3).build(), 36);
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 3_000; i++) {
            boolean longOne = random.nextDouble() < 0.05;
            int tokens = longOne ? 500 + random.nextInt(1_000) : 50 + random.nextInt(150);
            q.add(Priority.BULK, ref("gold-" + i, "gold", tokens, i));
            q.add(Priority.BULK, ref("noisy-" + i, "noisy", 3 * tokens, i));
        }
        java.util.Map<String, Long> admitted = new java.util.HashMap<>();
        for (int call = 0; call < 200; call++) {
            PendingQueue.Proposal p = q.propose(20, prio -> 3_000, Long.MAX_VALUE, 1_000L + call).orElseThrow();
            q.admit(p, 1_000L + call).forEach((t, tokens) -> admitted.merge(t, tokens, Long::sum));
        }
        assertThat(q.depthByTenant().get("gold")).as("gold still backlogged").isPositive();
        assertThat((double) admitted.get("gold") / admitted.get("noisy")).isBetween(2.9, 3.1);
    }

    @Test
    void shouldTellWhereEachTenantStandsPastTheTicketsListed() {
        PendingQueue q = queue();
        for (int i = 0; i < 6; i++) {
            q.add(Priority.BULK, ref("big-" + i, "big", 100, 1 + i));
        }
        q.add(Priority.BULK, ref("small-0", "small", 100, 10));
        q.add(Priority.BULK, ref("small-1", "small", 100, 11));

        Served served = q.served(3, 10);

        assertThat(served.first().stream().map(e -> e.getValue().id())).containsExactly("big-0", "small-0", "big-1");
        assertThat(served.rotations().get(Priority.BULK).tenants()).containsExactlyInAnyOrder(
                new io.quotaflow.status.QueueView.TenantRest("big", 1, 200, 4, 400, 400, 3, 6),
                new io.quotaflow.status.QueueView.TenantRest("small", 1, 100, 1, 100, 100, 11, 11));
        assertThat(q.served(3, 1).rotations()).as("more tenants than the bound: none").isEmpty();
        assertThat(q.served(100, 10).rotations()).as("every ticket listed: none needed").isEmpty();
        q.remove("big-5");
        assertThat(q.served(3, 10).rotations().get(Priority.BULK).tenants())
                .contains(new io.quotaflow.status.QueueView.TenantRest("big", 1, 200, 3, 300, 300, 3, 6));
    }
}
