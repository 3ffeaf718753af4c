package io.quotaflow.failure;

import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The one versioned schema of failure headers on {@code tickets.retry} and {@code tickets.dlq}:
 * UTF-8 strings under the {@code qf.} prefix. Readers ignore what they do not understand.
 */
public final class FailureHeaders {

    public static final String VERSION = "qf.version";
    public static final String ATTEMPT = "qf.attempt";
    public static final String NOT_BEFORE = "qf.not-before";
    public static final String FIRST_FAILURE = "qf.first-failure";
    public static final String LAST_FAILURE = "qf.last-failure";
    public static final String ENQUEUED_AT = "qf.enqueued-at";
    public static final String ERROR_KIND = "qf.error.kind";
    public static final String ERROR_STATUS = "qf.error.status";
    public static final String ERROR_MESSAGE = "qf.error.message";
    public static final String ORIGIN_TOPIC = "qf.origin.topic";
    public static final String ORIGIN_PARTITION = "qf.origin.partition";
    public static final String ORIGIN_OFFSET = "qf.origin.offset";
    public static final String REPLAY_COUNT = "qf.replay.count";
    public static final String REPLAY_OF = "qf.replay.of";
    public static final String BATCH_CAP = "qf.batch-cap";
    public static final String MAX_TOKENS_BOOST = "qf.max-tokens-boost";

    public static final String SCHEMA_VERSION = "1";
    public static final int MAX_MESSAGE_LENGTH = 300;

    private FailureHeaders() {
    }

    /** Headers for a record sent to the retry or dead-letter topic. */
    public static Headers forItem(WorkItem item, String kind, int status, String message) {
        RecordHeaders h = new RecordHeaders();
        put(h, VERSION, SCHEMA_VERSION);
        put(h, ATTEMPT, Integer.toString(item.attempt()));
        put(h, NOT_BEFORE, Long.toString(item.notBefore()));
        put(h, ENQUEUED_AT, Long.toString(item.enqueuedAt()));
        if (item.failure() != null) {
            put(h, FIRST_FAILURE, Long.toString(item.failure().firstFailure()));
            put(h, LAST_FAILURE, Long.toString(item.failure().lastFailure()));
        }
        put(h, ERROR_KIND, kind);
        put(h, ERROR_STATUS, Integer.toString(status));
        put(h, ERROR_MESSAGE, truncate(message));
        put(h, ORIGIN_TOPIC, item.origin().topic());
        put(h, ORIGIN_PARTITION, Integer.toString(item.origin().partition()));
        put(h, ORIGIN_OFFSET, Long.toString(item.origin().offset()));
        put(h, REPLAY_COUNT, Integer.toString(item.replayCount()));
        if (item.replayOf() != null) {
            put(h, REPLAY_OF, item.replayOf());
        }
        if (item.batchCap() > 0) {
            put(h, BATCH_CAP, Integer.toString(item.batchCap()));
        }
        if (item.maxTokensBoost() > 1) {
            put(h, MAX_TOKENS_BOOST, Integer.toString(item.maxTokensBoost()));
        }
        return h;
    }

    /** Headers for input that never became a ticket (bad input, too large). */
    public static Headers forRejectedInput(String originTopic, int partition, long offset, long now, String kind,
                                           String message, Headers incoming) {
        RecordHeaders h = new RecordHeaders();
        put(h, VERSION, SCHEMA_VERSION);
        put(h, ATTEMPT, "0");
        put(h, FIRST_FAILURE, Long.toString(now));
        put(h, LAST_FAILURE, Long.toString(now));
        put(h, ERROR_KIND, kind);
        put(h, ERROR_STATUS, "0");
        put(h, ERROR_MESSAGE, truncate(message));
        String topic = originTopic;
        String part = Integer.toString(partition);
        String off = Long.toString(offset);
        if (incoming != null && string(incoming, ORIGIN_TOPIC).isPresent()) {
            topic = string(incoming, ORIGIN_TOPIC).get();
            part = string(incoming, ORIGIN_PARTITION).orElse(part);
            off = string(incoming, ORIGIN_OFFSET).orElse(off);
        }
        put(h, ORIGIN_TOPIC, topic);
        put(h, ORIGIN_PARTITION, part);
        put(h, ORIGIN_OFFSET, off);
        put(h, REPLAY_COUNT, Integer.toString(incoming == null ? 0 : integer(incoming, REPLAY_COUNT).orElse(0)));
        if (incoming != null) {
            string(incoming, REPLAY_OF).ifPresent(v -> put(h, REPLAY_OF, v));
        }
        return h;
    }

    public static String truncate(String message) {
        if (message == null) {
            return "";
        }
        String oneLine = message.replaceAll("[\\r\\n\\t]+", " ").strip();
        return oneLine.length() > MAX_MESSAGE_LENGTH ? oneLine.substring(0, MAX_MESSAGE_LENGTH - 3) + "..." : oneLine;
    }

    public static Optional<String> string(Headers headers, String key) {
        if (headers == null) {
            return Optional.empty();
        }
        Header last = headers.lastHeader(key);
        if (last == null || last.value() == null) {
            return Optional.empty();
        }
        return Optional.of(new String(last.value(), StandardCharsets.UTF_8));
    }

    public static OptionalLong longValue(Headers headers, String key) {
        Optional<String> s = string(headers, key);
        if (s.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(s.get().strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    public static Optional<Integer> integer(Headers headers, String key) {
        OptionalLong v = longValue(headers, key);
        return v.isPresent() && v.getAsLong() >= Integer.MIN_VALUE && v.getAsLong() <= Integer.MAX_VALUE
                ? Optional.of((int) v.getAsLong()) : Optional.empty();
    }

    public static OptionalInt intValue(Headers headers, String key) {
        return integer(headers, key).map(OptionalInt::of).orElse(OptionalInt.empty());
    }

    private static void put(Headers headers, String key, String value) {
        headers.remove(key);
        headers.add(key, (value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
    }
}
