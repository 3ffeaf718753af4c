package io.quotaflow.dlq;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link DeadLetterStats} found in the dead-letter topic. Count maps are ordered by count,
 * highest first, then by name; records without the header count under {@value #NONE}.
 *
 * @param topic             the topic read
 * @param total             dead letters (committed records up to the end offsets at the start of the scan)
 * @param byKind            by {@code qf.error.kind}
 * @param byStatus          by {@code qf.error.status} ({@code 0} = rejected before any call)
 * @param byOriginTopic     by {@code qf.origin.topic}
 * @param oldest            the oldest record timestamp; null when the topic is empty
 * @param newest            the newest record timestamp; null when the topic is empty
 * @param topMessages       the {@value DeadLetterStats#TOP_MESSAGES} most frequent {@code qf.error.message} values
 * @param replayed          dead letters of tickets that had been replayed before ({@code qf.replay.count} &gt; 0)
 * @param byReplayCount     by {@code qf.replay.count}
 * @param messagesTruncated more distinct messages than {@link DeadLetterStats} keeps: the top list
 *                          only counts messages first seen before the cap was reached
 */
public record DeadLetterReport(
        String topic,
        long total,
        Map<String, Long> byKind,
        Map<String, Long> byStatus,
        Map<String, Long> byOriginTopic,
        Instant oldest,
        Instant newest,
        List<MessageCount> topMessages,
        long replayed,
        Map<String, Long> byReplayCount,
        boolean messagesTruncated) {

    /** The key under which records without the header are counted. */
    public static final String NONE = "(none)";

    /** One error message and how many dead letters carry it. */
    public record MessageCount(String message, long count) {
    }

    public DeadLetterReport {
        Objects.requireNonNull(topic, "topic");
        byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
        byStatus = Collections.unmodifiableMap(new LinkedHashMap<>(byStatus));
        byOriginTopic = Collections.unmodifiableMap(new LinkedHashMap<>(byOriginTopic));
        topMessages = List.copyOf(topMessages);
        byReplayCount = Collections.unmodifiableMap(new LinkedHashMap<>(byReplayCount));
    }

    /** The report as JSON; timestamps as ISO-8601 strings (null when the topic is empty). */
    public ObjectNode toJson() {
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("topic", topic);
        json.put("total", total);
        counts(json.putObject("byKind"), byKind);
        counts(json.putObject("byStatus"), byStatus);
        counts(json.putObject("byOriginTopic"), byOriginTopic);
        json.put("oldest", oldest == null ? null : oldest.toString());
        json.put("newest", newest == null ? null : newest.toString());
        ArrayNode top = json.putArray("topMessages");
        topMessages.forEach(m -> top.addObject().put("message", m.message()).put("count", m.count()));
        json.put("replayed", replayed);
        counts(json.putObject("byReplayCount"), byReplayCount);
        json.put("messagesTruncated", messagesTruncated);
        return json;
    }

    private static void counts(ObjectNode node, Map<String, Long> counts) {
        counts.forEach(node::put);
    }
}
