package io.quotaflow.ticket;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;

import static org.assertj.core.api.Assertions.assertThat;

class BinarySerdeTest {

    private final BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class);

    private static WorkItem item(byte[] original) {
        return new WorkItem(new WorkItem.Identity("T-1", Priority.BULK, "acme"),
                new WorkItem.Content(original, original.length, null,
                        List.of(new WorkItem.Header("trace-id", "t-1".getBytes(StandardCharsets.UTF_8)), new WorkItem.Header("empty", null)), null),
                new WorkItem.Journey(new WorkItem.Origin("tickets.bulk", 2, 99), 1_000, 1_000, 0, WorkItem.Routed.NONE),
                new WorkItem.Attempts(1, 2_000, new WorkItem.FailureState(1, 2, "transient", 503, "busy"), 1, "0:7"),
                new WorkItem.Sizing(12, 4, 2));
    }

    @Test
    void shouldRoundTripEveryFieldAndKeepTicketBytesRaw() {
        byte[] original = ("{\"id\":\"T-1\",\"body\":\"" + "é\\n\\u0001".repeat(10_000) + "\"}").getBytes(StandardCharsets.UTF_8);
        WorkItem item = item(original);
        byte[] bytes = serde.serializer().serialize("t", item);
        WorkItem back = serde.deserializer().deserialize("t", bytes);

        assertThat(back).isEqualTo(item);
        assertThat(back.original()).isEqualTo(original);
        assertThat(back.headers()).hasSize(2);
        assertThat(back.headers().get(0).value()).isEqualTo("t-1".getBytes(StandardCharsets.UTF_8));
        assertThat(back.headers().get(1).value()).isNull();
        assertThat(back.failure()).isEqualTo(item.failure());
        assertThat(back.replayOf()).isEqualTo("0:7");
        assertThat(back.originalSha256()).isEqualTo(WorkItem.sha256(original));
        // no base64 (a third more) and no JSON escaping of the ticket's own escapes
        assertThat(bytes.length).isLessThan(original.length + 600);
    }

    @Test
    void shouldReadTheJsonThatEarlierVersionsStored() throws Exception {
        byte[] original = "{\"id\":\"T-1\",\"body\":\"hi\"}".getBytes(StandardCharsets.UTF_8);
        WorkItem legacy = WorkItem.accepted(new WorkItem.Identity("T-1", Priority.STANDARD, "acme"), original, new WorkItem.Origin("tickets.standard", 0, 3), 10, 5);
        byte[] json = Json.MAPPER.writeValueAsBytes(java.util.Map.of("id", "T-1", "priority", "STANDARD", "tenant", "acme",
                "tokens", 5, "original", original, "origin", legacy.origin(), "enqueuedAt", 10, "maxTokensBoost", 1));
        WorkItem back = serde.deserializer().deserialize("t", json);
        assertThat(back.original()).isEqualTo(original);
        assertThat(back.originalSize()).isEqualTo(original.length);
        assertThat(back.originalSha256()).isEqualTo(WorkItem.sha256(original));
        assertThat(back.headers()).isEmpty();
        assertThat(back.reduced()).isFalse();
    }

    /** A usage record as versions before {@code rateLimitHeaders} wrote it. */
    record UsageBefore(long lastAdmittedMs, io.quotaflow.quota.DailyUsage day) {
    }

    @Test
    void shouldKeepWhetherAScopeSawRateLimitHeadersAndReadAnOlderUsageRecordAsNotSeen() {
        BinarySerde<io.quotaflow.quota.ScopeUsage> serde = new BinarySerde<>(io.quotaflow.quota.ScopeUsage.class);
        io.quotaflow.quota.ScopeUsage seen = new io.quotaflow.quota.ScopeUsage(1_700_000_000_000L, null, true);
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", seen))).isEqualTo(seen);

        byte[] older = new BinarySerde<>(UsageBefore.class).serializer().serialize("t", new UsageBefore(1_700_000_000_000L, null));
        io.quotaflow.quota.ScopeUsage read = serde.deserializer().deserialize("t", older);
        assertThat(read.lastAdmittedMs()).isEqualTo(1_700_000_000_000L);
        assertThat(read.rateLimitHeaders()).as("an older record: the guard applies").isFalse();
        assertThat(read.tokenLimit()).as("and its limits are not known").isZero();
        io.quotaflow.quota.ScopeUsage limits = new io.quotaflow.quota.ScopeUsage(1_700_000_000_000L, null, true, 1_000, 60_000);
        assertThat(serde.deserializer().deserialize("t", serde.serializer().serialize("t", limits))).isEqualTo(limits);

        // and an older version reading the new record ignores the field it does not know
        UsageBefore back = new BinarySerde<>(UsageBefore.class).deserializer().deserialize("t", serde.serializer().serialize("t", seen));
        assertThat(back.lastAdmittedMs()).isEqualTo(1_700_000_000_000L);
    }
}
