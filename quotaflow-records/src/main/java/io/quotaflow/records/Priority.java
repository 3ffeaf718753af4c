package io.quotaflow.records;

import java.util.Locale;
import java.util.Optional;

/** Priority classes, highest first. Each class has its own input topic. */
public enum Priority {
    INTERACTIVE("tickets.interactive"),
    STANDARD("tickets.standard"),
    BULK("tickets.bulk");

    private final String topic;

    Priority(String topic) {
        this.topic = topic;
    }

    /** The input topic producers write this class to. */
    public String topic() {
        return topic;
    }

    /** Lower-case wire name: {@code interactive}, {@code standard}, {@code bulk}. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses a wire name (case-insensitive); empty for anything else. */
    public static Optional<Priority> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        for (Priority p : values()) {
            if (p.wireName().equalsIgnoreCase(value.trim())) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /** The priority whose input topic is {@code topic}; empty for other topics. */
    public static Optional<Priority> ofTopic(String topic) {
        for (Priority p : values()) {
            if (p.topic.equals(topic)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }
}
