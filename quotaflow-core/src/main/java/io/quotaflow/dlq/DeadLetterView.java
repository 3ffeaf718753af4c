package io.quotaflow.dlq;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One dead letter as {@code dlq show} prints it: where it is, its key, its headers in order
 * (the pipeline redacts {@code qf.error.message} before writing; nothing is added here) and its
 * value. Text that is not valid UTF-8 is carried as base64.
 *
 * @param topic     the dead-letter topic
 * @param partition its partition
 * @param offset    its offset
 * @param timestamp the record timestamp (when it was dead-lettered); null when the record has none
 * @param key       the key as UTF-8 (the ticket id); null when absent
 * @param headers   every header, in record order
 * @param value     the value bytes; null for a tombstone
 */
public record DeadLetterView(String topic, int partition, long offset, Instant timestamp, String key,
                             List<HeaderView> headers, byte[] value) {

    /** A header: its name and its bytes. */
    public record HeaderView(String name, byte[] value) {
        public HeaderView {
            Objects.requireNonNull(name, "name");
        }

        /** The value as text: UTF-8 when it is, else {@code base64:...}; empty for a null value. */
        public String text() {
            return value == null ? "" : utf8(value).orElseGet(() -> "base64:" + Base64.getEncoder().encodeToString(value));
        }
    }

    public DeadLetterView {
        Objects.requireNonNull(topic, "topic");
        headers = List.copyOf(headers);
    }

    /** The dead letter {@code record} is. */
    public static DeadLetterView of(ConsumerRecord<byte[], byte[]> record) {
        List<HeaderView> headers = new ArrayList<>();
        for (Header h : record.headers()) {
            headers.add(new HeaderView(h.key(), h.value()));
        }
        return new DeadLetterView(record.topic(), record.partition(), record.offset(),
                record.timestamp() < 0 ? null : Instant.ofEpochMilli(record.timestamp()),
                record.key() == null ? null : new String(record.key(), StandardCharsets.UTF_8), headers, record.value());
    }

    /** The last value of header {@code name} as text. */
    public Optional<String> header(String name) {
        for (int i = headers.size() - 1; i >= 0; i--) {
            if (headers.get(i).name().equals(name)) {
                return Optional.of(headers.get(i).text());
            }
        }
        return Optional.empty();
    }

    /** The value as UTF-8 text, if it is valid UTF-8. */
    public Optional<String> valueText() {
        return value == null ? Optional.empty() : utf8(value);
    }

    /**
     * One JSON object: {@code topic}, {@code partition}, {@code offset}, {@code timestamp} (ISO-8601),
     * {@code key}, {@code headers} (name to text; a name that repeats maps to an array, in order),
     * {@code valueBytes}, and {@code value} (UTF-8 text) or {@code valueBase64}.
     */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("topic", topic);
        json.put("partition", partition);
        json.put("offset", offset);
        json.put("timestamp", timestamp == null ? null : timestamp.toString());
        json.put("key", key);
        ObjectNode hs = json.putObject("headers");
        for (HeaderView h : headers) {
            JsonNode existing = hs.get(h.name());
            if (existing == null) {
                hs.put(h.name(), h.text());
            } else if (existing.isArray()) {
                ((ArrayNode) existing).add(h.text());
            } else {
                hs.putArray(h.name()).add(existing.asText()).add(h.text());
            }
        }
        json.put("valueBytes", value == null ? 0 : value.length);
        Optional<String> text = valueText();
        if (text.isPresent()) {
            json.put("value", text.get());
        } else if (value != null) {
            json.put("valueBase64", Base64.getEncoder().encodeToString(value));
        } else {
            json.putNull("value");
        }
        return json;
    }

    static Optional<String> utf8(byte[] bytes) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }
}
