package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.InFlightBatch;
import io.quotaflow.dispatch.outcome.Outbound;

import io.quotaflow.batch.BatchJob;
import io.quotaflow.quota.ScopeUsage;
import io.quotaflow.records.Priority;
import io.quotaflow.ticket.BinarySerde;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A task hands what it holds of scopes another partition owns to their owners, once (docs/design.md, "Scope ownership"). */
class ScopeHandoverTest {

    private KeyValueStore<String, WorkItem> pending;
    private KeyValueStore<String, WorkItem> delayed;
    private KeyValueStore<String, InFlightBatch> inFlight;
    private KeyValueStore<String, Long> cancels;
    private KeyValueStore<String, ScopeUsage> usage;
    private KeyValueStore<String, BatchJob> jobs;
    /** The route of each ticket id: route a is scope "mine" (owned here), route b scope "theirs". */
    private final Map<String, String> routes = new LinkedHashMap<>();
    private final List<String> handedOver = new ArrayList<>();
    private final List<String> cancelled = new ArrayList<>();
    private long offset;

    private static <V> KeyValueStore<String, V> store(MockProcessorContext<?, ?> context, String name, Serde<V> serde) {
        return io.quotaflow.testing.MemoryStores.open(context, name, serde);
    }

    @BeforeEach
    void setUp() {
        MockProcessorContext<String, Outbound> context = new MockProcessorContext<>();
        io.quotaflow.testing.LedgerStores stores = io.quotaflow.testing.LedgerStores.open(context);
        pending = stores.pending();
        delayed = stores.delayed();
        inFlight = stores.inFlight();
        cancels = stores.cancels();
        usage = store(context, "u", new BinarySerde<>(ScopeUsage.class));
        jobs = store(context, "j", new BinarySerde<>(BatchJob.class));
    }

    private WorkItem item(String id, String route) {
        byte[] bytes = ("{\"id\":\"" + id + "\",\"body\":\"b\"}").getBytes(StandardCharsets.UTF_8);
        routes.put(id, route);
        return WorkItem.accepted(new WorkItem.Identity(id, Priority.STANDARD, "default"), bytes, new WorkItem.Origin("tickets.standard", 0, offset++), 1_000, 10).withRouted(WorkItem.Routed.to(route));
    }

    private String scopeOf(WorkItem item) {
        return switch (item.routed().route()) {
            case "a" -> "mine";
            case "b" -> "theirs";
            default -> null;
        };
    }

    private ScopeHandover.Result handOver() {
        Set<String> foreign = ScopeHandover.foreign(List.of("mine", "theirs"), "mine"::equals);
        return new ScopeHandover(this::scopeOf, foreign::contains, new ScopeHandover.Sink() {
            @Override
            public void handOver(WorkItem item, String scope) {
                assertThat(scope).isEqualTo("theirs");
                handedOver.add(item.key());
            }

            @Override
            public void cancelled(WorkItem item) {
                cancelled.add(item.key());
            }
        }).apply(new ScopeHandover.Stores(pending, delayed, inFlight, cancels, usage, jobs), foreign);
    }

    private InFlightBatch call(String batchId, WorkItem... items) {
        List<InFlightBatch.Member> members = new ArrayList<>();
        for (WorkItem i : items) {
            members.add(InFlightBatch.Member.of(i));
        }
        return new InFlightBatch(batchId, Priority.STANDARD, members, 1_000, 20, 10, 30);
    }

    @Test
    void shouldHandOverOnlyTheTicketsOfScopesAnotherPartitionOwnsAndKeepTheRest() {
        WorkItem mine = item("M-1", "a");
        WorkItem waiting = item("T-1", "b");
        WorkItem out = item("T-2", "b");
        WorkItem held = item("T-3", "b").withAttemptFailed(new WorkItem.FailureState(1, 1, "transient", 503, "busy"), 9_000);
        WorkItem orphan = item("O-1", "gone");
        pending.put(mine.key(), mine);
        pending.put(waiting.key(), waiting);
        pending.put(out.key(), out);
        pending.put(orphan.key(), orphan);
        delayed.put(held.key(), held);
        inFlight.put("call-theirs", call("call-theirs", out));
        inFlight.put("call-mine", call("call-mine", mine));
        usage.put("mine", new ScopeUsage(5_000, null));
        usage.put("theirs", new ScopeUsage(5_000, null));

        ScopeHandover.Result result = handOver();

        assertThat(handedOver).containsExactlyInAnyOrder("T-1", "T-2", "T-3");
        assertThat(result.tickets()).isEqualTo(3);
        assertThat(result.calls()).as("the foreign call is forgotten; the owner asks again").isEqualTo(1);
        assertThat(pending.get("T-1")).isNull();
        assertThat(pending.get("T-2")).isNull();
        assertThat(delayed.get("T-3")).isNull();
        assertThat(pending.get("M-1")).as("an owned scope's ticket stays").isNotNull();
        assertThat(pending.get("O-1")).as("a route this configuration lacks is re-routed elsewhere, not handed over").isNotNull();
        assertThat(inFlight.get("call-theirs")).isNull();
        assertThat(inFlight.get("call-mine")).isNotNull();
        assertThat(usage.get("theirs")).as("the owner starts without this task's record").isNull();
        assertThat(usage.get("mine")).isNotNull();
        assertThat(result.usage()).isTrue();
        assertThat(cancelled).isEmpty();
    }

    @Test
    void shouldEndATicketCancelledWhileItsCallWasOutInsteadOfHandingItOver() {
        WorkItem out = item("T-9", "b");
        pending.put(out.key(), out);
        inFlight.put("call", call("call", out));
        cancels.put(out.key(), 2_000L);

        ScopeHandover.Result result = handOver();

        assertThat(handedOver).isEmpty();
        assertThat(cancelled).containsExactly("T-9");
        assertThat(result.cancelled()).isOne();
        assertThat(pending.get("T-9")).isNull();
        assertThat(cancels.get("T-9")).isNull();
    }

    @Test
    void shouldHandNothingOverTwice() {
        pending.put("T-1", item("T-1", "b"));
        handOver();
        ScopeHandover.Result again = handOver();
        assertThat(handedOver).containsExactly("T-1");
        assertThat(again.any()).isFalse();
    }
}
