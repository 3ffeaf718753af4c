package io.quotaflow.failure;

import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.ticket.WorkItem;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Writes and reads the one versioned schema of failure headers on {@code tickets.retry} and
 * {@code tickets.dlq} ({@link DeadLetterHeaders} names them): UTF-8 strings under the {@code qf.}
 * prefix. Readers ignore what they do not understand.
 */
public final class FailureHeaders {


    private FailureHeaders() {
    }

    /** The producer's own headers of an input record, up to {@code maxBytes}, and how many were left off. */
    public record ProducerHeaders(List<WorkItem.Header> kept, int dropped) {
    }

    /**
     * The headers of an input record that belong to its producer: every header but quotaflow's own
     * {@code qf.*} ones (a producer cannot forge failure state or origins), in order, while they fit
     * in {@code maxBytes}.
     */
    public static ProducerHeaders producerHeaders(Headers incoming, int maxBytes) {
        List<WorkItem.Header> kept = new ArrayList<>();
        int dropped = 0;
        long used = 0;
        if (incoming != null) {
            for (Header header : incoming) {
                if (header.key().startsWith(DeadLetterHeaders.PREFIX)) {
                    continue;
                }
                WorkItem.Header h = new WorkItem.Header(header.key(), header.value());
                if (used + h.size() > maxBytes) {
                    dropped++;
                    continue;
                }
                used += h.size();
                kept.add(h);
            }
        }
        return new ProducerHeaders(List.copyOf(kept), dropped);
    }

    /** Headers for a record sent to the retry or dead-letter topic: the ticket's ({@link #forHandoff}), then its failure and retry state. */
    public static Headers forItem(WorkItem item, String kind, int status, String message) {
        Headers h = forHandoff(item);
        put(h, DeadLetterHeaders.NOT_BEFORE, Long.toString(item.notBefore()));
        if (item.failure() != null) {
            put(h, DeadLetterHeaders.FIRST_FAILURE, Long.toString(item.failure().firstFailure()));
            put(h, DeadLetterHeaders.LAST_FAILURE, Long.toString(item.failure().lastFailure()));
            put(h, DeadLetterHeaders.CALL_MS, Long.toString(item.failure().callMs()));
            put(h, DeadLetterHeaders.RETRY_WAIT_MS, Long.toString(item.failure().retryWaitMs()));
        }
        put(h, DeadLetterHeaders.ERROR_KIND, kind);
        put(h, DeadLetterHeaders.ERROR_STATUS, Integer.toString(status));
        put(h, DeadLetterHeaders.ERROR_MESSAGE, truncate(message));
        put(h, DeadLetterHeaders.REPLAY_COUNT, Integer.toString(item.replayCount()));
        if (item.replayOf() != null) {
            put(h, DeadLetterHeaders.REPLAY_OF, item.replayOf());
        }
        if (item.batchCap() > 0) {
            put(h, DeadLetterHeaders.BATCH_CAP, Integer.toString(item.batchCap()));
        }
        if (item.maxTokensBoost() > 1) {
            put(h, DeadLetterHeaders.MAX_TOKENS_BOOST, Integer.toString(item.maxTokensBoost()));
        }
        if (item.routed().route() != null) {
            put(h, DeadLetterHeaders.ROUTE, item.routed().route());
        }
        return h;
    }

    /**
     * A ticket's own headers, as a hand-off ({@code tickets.handoff}) carries them: the producer's, then where it
     * came from and how far it got (no failure: a hand-off is not an error; the caller adds {@code qf.handoff.*}).
     */
    public static Headers forHandoff(WorkItem item) {
        RecordHeaders h = new RecordHeaders();
        item.headers().forEach(p -> h.add(p.key(), p.value()));
        put(h, DeadLetterHeaders.VERSION, DeadLetterHeaders.SCHEMA_VERSION);
        put(h, DeadLetterHeaders.ATTEMPT, Integer.toString(item.attempt()));
        put(h, DeadLetterHeaders.ENQUEUED_AT, Long.toString(item.enqueuedAt()));
        put(h, DeadLetterHeaders.PUBLISHED_AT, Long.toString(item.publishedAt()));
        put(h, DeadLetterHeaders.TENANT, item.tenant());
        put(h, DeadLetterHeaders.ORIGIN_TOPIC, item.origin().topic());
        put(h, DeadLetterHeaders.ORIGIN_PARTITION, Integer.toString(item.origin().partition()));
        put(h, DeadLetterHeaders.ORIGIN_OFFSET, Long.toString(item.origin().offset()));
        if (item.reduced()) {
            putTruncation(h, item.originalSize(), item.originalSha256());
        }
        if (item.routed().fellBack()) {
            put(h, DeadLetterHeaders.FALLBACK_FROM, item.routed().from());
            put(h, DeadLetterHeaders.FALLBACK_REASON, item.routed().reason());
        }
        return h;
    }

    private static void putTruncation(Headers h, long size, String sha256) {
        put(h, DeadLetterHeaders.ORIGINAL_SIZE, Long.toString(size));
        put(h, DeadLetterHeaders.ORIGINAL_SHA256, sha256);
        put(h, DeadLetterHeaders.VALUE_TRUNCATED, "true");
    }

    /**
     * Headers for input that never became a ticket (bad input, too large): the producer's own
     * headers, then the failure and the record's real coordinates.
     *
     * @param origin      where the record really is (for a record from the retry topic: where it first entered)
     * @param value       the value the dead letter carries (truncated when the input was too large)
     * @param replayCount the replay pair from the input, kept so replays stay counted
     */
    public static Headers forRejectedInput(WorkItem.Origin origin, long now, String kind, String message,
                                           ProducerHeaders producer, BoundedValue value, int replayCount, String replayOf) {
        RecordHeaders h = new RecordHeaders();
        producer.kept().forEach(p -> h.add(p.key(), p.value()));
        put(h, DeadLetterHeaders.VERSION, DeadLetterHeaders.SCHEMA_VERSION);
        put(h, DeadLetterHeaders.ATTEMPT, "0");
        put(h, DeadLetterHeaders.FIRST_FAILURE, Long.toString(now));
        put(h, DeadLetterHeaders.LAST_FAILURE, Long.toString(now));
        put(h, DeadLetterHeaders.ERROR_KIND, kind);
        put(h, DeadLetterHeaders.ERROR_STATUS, "0");
        put(h, DeadLetterHeaders.ERROR_MESSAGE, truncate(message));
        put(h, DeadLetterHeaders.ORIGIN_TOPIC, origin.topic());
        put(h, DeadLetterHeaders.ORIGIN_PARTITION, Integer.toString(origin.partition()));
        put(h, DeadLetterHeaders.ORIGIN_OFFSET, Long.toString(origin.offset()));
        put(h, DeadLetterHeaders.REPLAY_COUNT, Integer.toString(replayCount));
        if (replayOf != null) {
            put(h, DeadLetterHeaders.REPLAY_OF, replayOf);
        }
        if (producer.dropped() > 0) {
            put(h, DeadLetterHeaders.HEADERS_DROPPED, Integer.toString(producer.dropped()));
        }
        if (value.truncated()) {
            putTruncation(h, value.originalSize(), value.originalSha256());
        }
        return h;
    }

    /** One line, at most {@value DeadLetterHeaders#MAX_MESSAGE_LENGTH} characters, with anything shaped like a credential scrubbed. */
    public static String truncate(String message) {
        if (message == null) {
            return "";
        }
        // the last line of defence: every qf.error.message passes here, whatever produced it
        String oneLine = io.quotaflow.settings.Redactor.scrub(message.replaceAll("[\\r\\n\\t]+", " ")).strip();
        return oneLine.length() > DeadLetterHeaders.MAX_MESSAGE_LENGTH ? oneLine.substring(0, DeadLetterHeaders.MAX_MESSAGE_LENGTH - 3) + "..." : oneLine;
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
