package io.quotaflow.ticket;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import io.quotaflow.records.Json;
import io.quotaflow.records.Priority;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stored form of {@link WorkItem}. {@link BinarySerde} of {@code WorkItem} is the value serde of the dispatch
 * repartition topic and of the dispatcher's pending and delayed stores and the cache's followers store (so of
 * their changelogs), and a {@code WorkItem} nested in an in-flight batch is read the same way: whatever an earlier
 * version wrote there has to read after an upgrade. {@code src/test/resources/workitem/legacy-*.cbor} are
 * records in the flat form (every field a top-level property) written by the last flat {@code WorkItem}; their
 * README says how.
 */
class WorkItemCompatibilityTest {

    private final BinarySerde<WorkItem> serde = new BinarySerde<>(WorkItem.class);

    private static byte[] resource(String name) throws IOException {
        try (InputStream in = WorkItemCompatibilityTest.class.getResourceAsStream("/workitem/" + name)) {
            assertThat(in).as(name).isNotNull();
            return in.readAllBytes();
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> fieldNames(byte[] cbor) throws IOException {
        List<String> names = new ArrayList<>();
        BinarySerde.CBOR.readTree(cbor).fieldNames().forEachRemaining(names::add);
        return names;
    }

    @Test
    void shouldReadAnOldRecordWithEveryFieldSetIntoTheSameValues() throws IOException {
        byte[] stored = resource("legacy-full.cbor");
        assertThat(fieldNames(stored)).as("the fixture is in the flat form").contains("id", "original", "routed", "deadline");

        WorkItem item = serde.deserializer().deserialize("dispatch", stored);

        assertThat(item.id()).isEqualTo("T-1");
        assertThat(item.priority()).isEqualTo(Priority.INTERACTIVE);
        assertThat(item.tenant()).isEqualTo("acme");
        assertThat(item.tokens()).isEqualTo(321);
        assertThat(item.original()).isEqualTo(utf8("{\"id\":\"T-1\",\"subject\":\"é\",\"body\":\"reduced\"}"));
        assertThat(item.origin()).isEqualTo(new WorkItem.Origin("tickets.interactive", 3, 4_567));
        assertThat(item.enqueuedAt()).isEqualTo(1_700_000_000_000L);
        assertThat(item.attempt()).isEqualTo(2);
        assertThat(item.notBefore()).isEqualTo(1_700_000_060_000L);
        assertThat(item.failure()).isEqualTo(
                new WorkItem.FailureState(1_700_000_010_000L, 1_700_000_050_000L, "http-5xx", 503, "busy", 1_234, 5_678));
        assertThat(item.replayCount()).isEqualTo(1);
        assertThat(item.replayOf()).isEqualTo("2:99");
        assertThat(item.batchCap()).isEqualTo(4);
        assertThat(item.maxTokensBoost()).isEqualTo(2);
        assertThat(item.originalSize()).isEqualTo(987_654);
        assertThat(item.reduced()).isTrue();
        assertThat(item.originalSha256()).isEqualTo("ab".repeat(32));
        assertThat(item.headers()).extracting(WorkItem.Header::key).containsExactly("trace-id", "empty");
        assertThat(item.headers().get(0).value()).isEqualTo(utf8("t-1"));
        assertThat(item.headers().get(1).value()).isNull();
        assertThat(item.routed()).isEqualTo(new WorkItem.Routed("backup", "primary", "circuit-open"));
        assertThat(item.contentKey()).isEqualTo("cd".repeat(32));
        assertThat(item.publishedAt()).isEqualTo(1_699_999_999_000L);
        assertThat(item.deadline()).isEqualTo(1_700_003_600_000L);
        assertThat(item.key()).isEqualTo("acme:T-1");
    }

    @Test
    void shouldReadAnOldRecordWithNullsAndDefaults() throws IOException {
        WorkItem item = serde.deserializer().deserialize("dispatch", resource("legacy-nulls.cbor"));

        byte[] plain = utf8("{\"id\":\"T-2\",\"body\":\"hi\"}");
        WorkItem expected = new WorkItem(new WorkItem.Identity("T-2", Priority.BULK, null),
                new WorkItem.Content(plain, plain.length, null, List.of(), null),
                new WorkItem.Journey(new WorkItem.Origin("tickets.bulk", 0, 7), 1_000, 1_000, 0, WorkItem.Routed.NONE),
                WorkItem.Attempts.NONE, new WorkItem.Sizing(10, 0, 1));
        assertThat(item).isEqualTo(expected);
        assertThat(item.identity()).isEqualTo(expected.identity());
        assertThat(item.journey()).isEqualTo(expected.journey());
        assertThat(item.attempts()).isEqualTo(expected.attempts());
        assertThat(item.sizing()).isEqualTo(expected.sizing());
        assertThat(item.tenant()).isEqualTo("default");
        assertThat(item.failure()).isNull();
        assertThat(item.replayOf()).isNull();
        assertThat(item.contentKey()).isNull();
        assertThat(item.headers()).isEmpty();
        assertThat(item.original()).isEqualTo(plain);
        assertThat(item.originalSha256()).isEqualTo(WorkItem.sha256(plain));
        assertThat(item.reduced()).isFalse();
        assertThat(item.hasDeadline()).isFalse();
    }

    @Test
    void shouldReadAnOldRoutedRecordWithADeadline() throws IOException {
        WorkItem item = serde.deserializer().deserialize("dispatch", resource("legacy-routed.cbor"));

        assertThat(item.id()).isEqualTo("T-3");
        assertThat(item.priority()).isEqualTo(Priority.STANDARD);
        assertThat(item.tenant()).isEqualTo("globex");
        assertThat(item.tokens()).isEqualTo(55);
        assertThat(item.origin()).isEqualTo(new WorkItem.Origin("tickets.standard", 1, 8));
        assertThat(item.routed()).isEqualTo(WorkItem.Routed.to("primary"));
        assertThat(item.routed().fellBack()).isFalse();
        assertThat(item.enqueuedAt()).isEqualTo(2_000);
        assertThat(item.publishedAt()).isEqualTo(2_000);
        assertThat(item.deadline()).isEqualTo(9_000);
        assertThat(item.maxTokensBoost()).isEqualTo(1);
    }

    @Test
    void shouldWriteAnOldRecordBackInTheGroupedForm() throws IOException {
        WorkItem old = serde.deserializer().deserialize("dispatch", resource("legacy-full.cbor"));

        byte[] rewritten = serde.serializer().serialize("dispatch", old);
        WorkItem back = serde.deserializer().deserialize("dispatch", rewritten);

        assertThat(fieldNames(rewritten)).containsExactlyInAnyOrder("identity", "content", "journey", "attempts", "sizing");
        assertThat(back).isEqualTo(old);
        assertThat(back.identity()).isEqualTo(old.identity());
        assertThat(back.journey()).isEqualTo(old.journey());
        assertThat(back.attempts()).isEqualTo(old.attempts());
        assertThat(back.sizing()).isEqualTo(old.sizing());
        assertThat(back.original()).isEqualTo(old.original());
        assertThat(back.originalSize()).isEqualTo(987_654);
        assertThat(back.contentKey()).isEqualTo(old.contentKey());
        assertThat(back.headers().get(0).value()).isEqualTo(utf8("t-1"));
    }

    @Test
    void shouldRoundTripTheGroupedFormAndRebuildOnlyTheChangedGroup() throws IOException {
        byte[] original = utf8("{\"id\":\"T-9\",\"body\":\"x\"}");
        WorkItem item = new WorkItem(new WorkItem.Identity("T-9", Priority.BULK, "acme"),
                new WorkItem.Content(original, original.length, null, List.of(new WorkItem.Header("h", null)), "ef".repeat(32)),
                new WorkItem.Journey(new WorkItem.Origin("tickets.bulk", 0, 1), 10, 5, 99, WorkItem.Routed.to("r")),
                new WorkItem.Attempts(1, 20, new WorkItem.FailureState(1, 2, "timeout", 0, "slow"), 0, null),
                new WorkItem.Sizing(7, 2, 3));
        WorkItem failed = item.withAttemptFailed(new WorkItem.FailureState(1, 3, "timeout", 0, "slow"), 40).withTokens(8);

        WorkItem back = serde.deserializer().deserialize("dispatch", serde.serializer().serialize("dispatch", failed));

        assertThat(back.attempt()).isEqualTo(2);
        assertThat(back.notBefore()).isEqualTo(40);
        assertThat(back.failure().lastFailure()).isEqualTo(3);
        assertThat(back.tokens()).isEqualTo(8);
        assertThat(back.batchCap()).isEqualTo(2);
        assertThat(back.maxTokensBoost()).isEqualTo(3);
        assertThat(back.journey()).isEqualTo(item.journey());
        assertThat(back.identity()).isEqualTo(item.identity());
        assertThat(back.contentKey()).isEqualTo("ef".repeat(32));
        assertThat(back.headers()).singleElement().satisfies(h -> assertThat(h.value()).isNull());
        assertThat(failed.content()).as("a wither rebuilds only its group").isSameAs(item.content());
        assertThat(failed.journey()).isSameAs(item.journey());
    }

    @Test
    void shouldReadTheFlatJsonOfOlderVersionsAndIgnoreUnknownProperties() throws IOException {
        WorkItem old = serde.deserializer().deserialize("dispatch", resource("legacy-full.cbor"));
        JsonNode flat = BinarySerde.CBOR.readTree(resource("legacy-full.cbor"));
        ((com.fasterxml.jackson.databind.node.ObjectNode) flat).put("someFutureField", 1);

        WorkItem fromJson = serde.deserializer().deserialize("dispatch", Json.MAPPER.writeValueAsBytes(flat));

        assertThat(fromJson).isEqualTo(old);
        assertThat(fromJson.original()).isEqualTo(old.original());
        assertThat(fromJson.headers().get(0).value()).isEqualTo(utf8("t-1"));
        assertThat(fromJson.routed()).isEqualTo(old.routed());
    }
}
