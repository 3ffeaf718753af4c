package io.quotaflow.records;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import org.apache.kafka.common.errors.SerializationException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The record contract as a downstream team uses it: the serdes round-trip, and the schemas accept and reject what they should. */
class RecordContractTest {

    private static final JsonSchemaFactory FACTORY = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012);

    private static JsonSchema schema(String name) throws IOException {
        try (InputStream in = ClassificationSerde.class.getResourceAsStream("/schemas/" + name + ".schema.json")) {
            assertThat(in).as("schemas/%s.schema.json in the records jar", name).isNotNull();
            return FACTORY.getSchema(in);
        }
    }

    private static Set<ValidationMessage> validate(String schema, String json) throws IOException {
        return schema(schema).validate(Json.MAPPER.readTree(json));
    }

    private static final Classification RESULT = new Classification("T-1042", "acme", "billing", "medium", "gpt-4o-mini", "primary", 1,
            812, 96, 640, 1200, "2026-01-01T00:00:01Z", "backup", "halted", Boolean.FALSE, 0L, Boolean.TRUE, null);

    @Test
    void shouldRoundTripAClassificationThroughItsSerde() {
        ClassificationSerde serde = new ClassificationSerde();
        byte[] bytes = serde.serializer().serialize("tickets.classified", RESULT);

        assertThat(serde.deserializer().deserialize("tickets.classified", bytes)).isEqualTo(RESULT);
        assertThat(serde.deserializer().deserialize("tickets.classified", null)).isNull();
    }

    @Test
    void shouldReadAClassificationWithAFieldItDoesNotKnow() {
        byte[] later = ("{\"id\":\"T-1\",\"category\":\"billing\",\"urgency\":\"low\",\"model\":\"m\",\"route\":\"default\","
                + "\"attempts\":1,\"promptTokens\":1,\"completionTokens\":1,\"latencyMs\":1,\"queuedMs\":1,"
                + "\"classifiedAt\":\"2026-01-01T00:00:00Z\",\"cached\":false,\"addedLater\":42}").getBytes(StandardCharsets.UTF_8);

        Classification read = new ClassificationSerde().deserializer().deserialize("tickets.classified", later);

        assertThat(read.id()).isEqualTo("T-1");
        assertThat(read.cached()).isFalse();
    }

    @Test
    void shouldWriteClassificationsTheSchemaAccepts() throws IOException {
        String json = new String(new ClassificationSerde().serializer().serialize("t", RESULT), StandardCharsets.UTF_8);
        Classification plain = new Classification("T-1", "default", "other", "low", "m", "default", 0, 0, 0, 0, 5, "2026-01-01T00:00:00Z",
                null, null, Boolean.TRUE, 0L, Boolean.TRUE, null);
        Classification stale = new Classification("T-2", "default", "other", "low", "m", "default", 0, 0, 0, 0, 5, "2026-01-01T00:00:00Z",
                null, null, Boolean.TRUE, 4_000L, Boolean.FALSE, Boolean.TRUE);
        String cached = new String(new ClassificationSerde().serializer().serialize("t", plain), StandardCharsets.UTF_8);

        assertThat(validate("classification", json)).isEmpty();
        assertThat(validate("classification", cached)).as("no fallback fields when there was no fallback").isEmpty();
        assertThat(validate("classification", new String(new ClassificationSerde().serializer().serialize("t", stale),
                StandardCharsets.UTF_8))).as("a stale answer after a failed attempt").isEmpty();
        Classification untimed = new Classification("T-3", "default", "other", "low", "m", "default", 1, 0, 0, 0, 5,
                "2026-01-01T00:00:00Z", null, null, Boolean.FALSE);
        assertThat(validate("classification", new String(new ClassificationSerde().serializer().serialize("t", untimed),
                StandardCharsets.UTF_8))).as("retryWaitMs and firstTry are required").isNotEmpty();
    }

    @Test
    void shouldRejectAClassificationMissingAFieldOrCarryingAnUndocumentedOne() throws IOException {
        JsonNode valid = Json.MAPPER.valueToTree(RESULT);
        String missing = ((com.fasterxml.jackson.databind.node.ObjectNode) valid.deepCopy()).without("category").toString();
        String extra = ((com.fasterxml.jackson.databind.node.ObjectNode) valid.deepCopy()).put("secret", "x").toString();
        String halfFallback = ((com.fasterxml.jackson.databind.node.ObjectNode) valid.deepCopy()).without("fallbackReason").toString();

        assertThat(validate("classification", missing)).isNotEmpty();
        assertThat(validate("classification", extra)).isNotEmpty();
        assertThat(validate("classification", halfFallback)).isNotEmpty();
    }

    @Test
    void shouldAcceptWhatTheParserAcceptsAndRejectWhatItRejects() throws IOException {
        String[] accepted = {"{\"id\":\"T-1\",\"subject\":\"Charged twice\"}", "{\"id\":42,\"body\":\"hi\",\"tenant\":\"acme\"}",
            "{\"id\":\"T-2\",\"body\":\"x\",\"priority\":\"bulk\",\"metadata\":{\"a\":1},\"unknown\":[1]}"};
        String[] rejected = {"{\"subject\":\"no id\"}", "{\"id\":\"T-3\"}", "{\"id\":\" \",\"body\":\"x\"}",
            "{\"id\":1.5,\"body\":\"x\"}", "{\"id\":\"T-4\",\"body\":7}", "[1]"};
        for (String json : accepted) {
            assertThat(validate("ticket", json)).as(json).isEmpty();
            assertThat(TicketParser.parse(json.getBytes(StandardCharsets.UTF_8))).as(json).isInstanceOf(TicketParser.Valid.class);
        }
        for (String json : rejected) {
            assertThat(validate("ticket", json)).as(json).isNotEmpty();
            assertThat(TicketParser.parse(json.getBytes(StandardCharsets.UTF_8))).as(json).isInstanceOf(TicketParser.Invalid.class);
        }
    }

    @Test
    void shouldRoundTripATicketAndRefuseWhatThePipelineWouldDeadLetter() {
        TicketSerde serde = new TicketSerde();
        byte[] value = "{\"id\":\"T-1\",\"subject\":\"Charged twice\",\"tenant\":\"acme\",\"extra\":true}".getBytes(StandardCharsets.UTF_8);

        Ticket ticket = serde.deserializer().deserialize("tickets.standard", value);
        Ticket again = serde.deserializer().deserialize("tickets.standard", serde.serializer().serialize("tickets.standard", ticket));

        assertThat(again.id()).isEqualTo("T-1");
        assertThat(again.tenant()).isEqualTo("acme");
        assertThat(again.json().path("extra").asBoolean()).as("unknown fields kept").isTrue();
        assertThatThrownBy(() -> serde.deserializer().deserialize("tickets.standard", "{\"id\":\"T-2\"}".getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(SerializationException.class).hasMessageContaining(TicketParser.NO_TEXT);
    }

    @Test
    void shouldDescribeDeadLetterHeadersByTheirNames() throws IOException {
        String headers = "{\"" + DeadLetterHeaders.VERSION + "\":\"1\",\"" + DeadLetterHeaders.ATTEMPT + "\":\"3\",\""
                + DeadLetterHeaders.FIRST_FAILURE + "\":\"1767225600000\",\"" + DeadLetterHeaders.LAST_FAILURE + "\":\"1767225601000\",\""
                + DeadLetterHeaders.ERROR_KIND + "\":\"retries-exhausted\",\"" + DeadLetterHeaders.ERROR_STATUS + "\":\"500\",\""
                + DeadLetterHeaders.ERROR_MESSAGE + "\":\"boom\",\"" + DeadLetterHeaders.ORIGIN_TOPIC + "\":\"tickets.standard\",\""
                + DeadLetterHeaders.ORIGIN_PARTITION + "\":\"0\",\"" + DeadLetterHeaders.ORIGIN_OFFSET + "\":\"17\","
                + "\"producer-trace\":\"abc\"}";

        assertThat(validate("dead-letter", headers)).isEmpty();
        assertThat(validate("dead-letter", headers.replace("retries-exhausted", "gave-up"))).as("an unknown kind").isNotEmpty();
        assertThat(validate("dead-letter", headers.replace("\"17\"", "\"seventeen\""))).as("an offset that is no number").isNotEmpty();
        String noOrigin = headers.replaceAll(",\"qf\\.origin\\.[a-z]+\":\"[^\"]*\"", "");
        assertThat(noOrigin).doesNotContain("qf.origin");
        assertThat(validate("dead-letter", noOrigin)).as("a ticket's dead letter names its origin").isNotEmpty();
        assertThat(validate("dead-letter", noOrigin.replace("retries-exhausted", "internal-error")))
                .as("an internal record's dead letter has no origin to name").isEmpty();
    }
}
