package io.quotaflow.settings;

import io.quotaflow.records.Priority;

import java.util.List;
import java.util.Optional;

/**
 * The names of quotaflow's topics under one {@code topics.prefix}: {@code <prefix>tickets.standard}
 * and so on, so several deployments share a cluster without reading each other's records.
 *
 * @param prefix the prefix, possibly empty
 */
public record TopicNames(String prefix) {

    /** The unprefixed names. */
    public static final TopicNames DEFAULT = new TopicNames("");

    /** The unprefixed base names, in declaration order. */
    public static final List<String> BASE_NAMES = List.of(Priority.INTERACTIVE.topic(), Priority.STANDARD.topic(),
            Priority.BULK.topic(), "tickets.retry", "tickets.classified", "tickets.dlq", "tickets.handoff");

    public TopicNames {
        prefix = prefix == null ? "" : prefix.strip();
        if (!prefix.matches("[A-Za-z0-9._-]{0,100}")) {
            throw new IllegalArgumentException("topics.prefix must be letters, digits, '.', '_' or '-', at most 100 characters");
        }
    }

    /**
     * The names of the deployment whose dead-letter topic is {@code dlqTopic}
     * ({@code team-a.tickets.dlq} ⇒ prefix {@code team-a.}); the unprefixed names for any other topic.
     */
    public static TopicNames ofDlq(String dlqTopic) {
        String suffix = "tickets.dlq";
        if (dlqTopic != null && dlqTopic.endsWith(suffix)) {
            String prefix = dlqTopic.substring(0, dlqTopic.length() - suffix.length());
            if (prefix.matches("[A-Za-z0-9._-]{0,100}")) {
                return new TopicNames(prefix);
            }
        }
        return DEFAULT;
    }

    /** {@code base} under this prefix. */
    public String name(String base) {
        return prefix + base;
    }

    public String input(Priority priority) {
        return name(priority.topic());
    }

    public String retry() {
        return name("tickets.retry");
    }

    public String classified() {
        return name("tickets.classified");
    }

    public String dlq() {
        return name("tickets.dlq");
    }

    /** The human queue: tickets handed off before their deadline (docs/design.md, "Deadlines and hand-off"). */
    public String handoff() {
        return name("tickets.handoff");
    }

    /** The topics the pipeline consumes: the three priority topics, then retry. */
    public List<String> inputs() {
        return List.of(input(Priority.INTERACTIVE), input(Priority.STANDARD), input(Priority.BULK), retry());
    }

    /** Every quotaflow topic, in declaration order. */
    public List<String> all() {
        return BASE_NAMES.stream().map(this::name).toList();
    }

    /** The priority whose input topic (under this prefix) is {@code topic}; empty for any other topic. */
    public Optional<Priority> priorityOf(String topic) {
        if (topic == null || !topic.startsWith(prefix)) {
            return Optional.empty();
        }
        return Priority.ofTopic(topic.substring(prefix.length()));
    }

    /** The application id to use when none is configured. */
    public String defaultApplicationId() {
        return prefix + "quotaflow";
    }
}
