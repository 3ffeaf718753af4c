package io.quotaflow.admin;

import java.util.Objects;

/**
 * One way a topic on the cluster differs from its declaration in {@code topics/}: what
 * {@code topics diff} prints and what {@code topics.manage=verify} refuses to start on.
 *
 * @param topic    the topic's full name (with {@code topics.prefix})
 * @param kind     what differs
 * @param name     the config key for {@link Kind#CONFIG}, otherwise the kind's own word
 * @param actual   what the cluster has ({@code null}: missing, or the config unset)
 * @param declared what {@code topics/} declares
 */
public record TopicDifference(String topic, Kind kind, String name, String actual, String declared) {

    /** What differs. */
    public enum Kind {
        /** The topic does not exist. */
        MISSING(true),
        /** Fewer partitions than declared ({@code topics apply} would raise them). */
        FEWER_PARTITIONS(true),
        /** More partitions than declared (never lowered: a note, not a refusal). */
        MORE_PARTITIONS(false),
        /** A lower replication factor than declared (never changed by quotaflow: a note, not a refusal). */
        LOWER_REPLICATION(false),
        /** A declared config has another value ({@code topics apply} would set it). */
        CONFIG(true);

        private final boolean blocking;

        Kind(boolean blocking) {
            this.blocking = blocking;
        }

        /** Whether {@code topics.manage=verify} refuses to start on it: what {@code topics apply} would change. */
        public boolean blocking() {
            return blocking;
        }
    }

    public TopicDifference {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(declared, "declared");
    }

    /** One line: {@code tickets.dlq: retention.ms is 604800000, declared 2592000000}. */
    public String describe() {
        return switch (kind) {
            case MISSING -> topic + ": missing (declared with " + declared + ")";
            case FEWER_PARTITIONS, MORE_PARTITIONS -> topic + ": " + actual + " partitions, declared " + declared
                    + (kind == Kind.MORE_PARTITIONS ? " (partition counts are never lowered: nothing to do)" : "");
            case LOWER_REPLICATION -> topic + ": replication factor " + actual + ", declared " + declared
                    + " (quotaflow never changes it: reassign the partitions to raise it)";
            case CONFIG -> topic + ": " + name + " is " + (actual == null ? "unset" : actual) + ", declared " + declared;
        };
    }
}
