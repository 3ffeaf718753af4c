package io.quotaflow.dispatch.outcome;

/** A record the dispatcher or the intake sends out: where to, and the value bytes. */
public record Outbound(Target target, byte[] value, String topic) {

    public enum Target {
        CLASSIFIED, RETRY, DEAD_LETTER,
        /** To {@code tickets.handoff}, the human queue. */
        HANDOFF,
        /** To another route's dispatcher, through the dispatch repartition topic ({@link #topic()}). */
        MOVE
    }

    /** To one of the fixed output topics. */
    public Outbound(Target target, byte[] value) {
        this(target, value, null);
    }

    /** Writes an outbound record's value bytes as they are. */
    public static org.apache.kafka.common.serialization.Serde<Outbound> valueSerde() {
        return org.apache.kafka.common.serialization.Serdes.serdeFrom((topic, o) -> o == null ? null : o.value(),
                (topic, bytes) -> {
                    throw new UnsupportedOperationException("outbound records are only written");
                });
    }
}
