package io.quotaflow.topology;

import io.quotaflow.records.Priority;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;

import java.util.List;

/** Every topic quotaflow reads or writes, each paired with its serdes. */
public final class Topics {

    /** A topic name with its key and value serdes. */
    public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {

        public Consumed<K, V> consumed() {
            return Consumed.with(keySerde, valueSerde);
        }

        public Produced<K, V> produced() {
            return Produced.with(keySerde, valueSerde);
        }
    }

    public static final Topic<String, byte[]> INTERACTIVE = bytes(Priority.INTERACTIVE.topic());
    public static final Topic<String, byte[]> STANDARD = bytes(Priority.STANDARD.topic());
    public static final Topic<String, byte[]> BULK = bytes(Priority.BULK.topic());
    /** Retryable failures, value unchanged, attempt state in headers. */
    public static final Topic<String, byte[]> RETRY = bytes("tickets.retry");
    /** Classification JSON, the product. */
    public static final Topic<String, byte[]> CLASSIFIED = bytes("tickets.classified");
    /** Dead letters: the original bytes, failure in headers. */
    public static final Topic<String, byte[]> DLQ = bytes("tickets.dlq");
    /** The human queue: the original bytes, why and by when in {@code qf.handoff.*} headers. */
    public static final Topic<String, byte[]> HANDOFF = bytes("tickets.handoff");

    /** Topics the pipeline consumes. */
    public static final List<Topic<String, byte[]>> INPUTS = List.of(INTERACTIVE, STANDARD, BULK, RETRY);

    public static final List<Topic<String, byte[]>> ALL = List.of(INTERACTIVE, STANDARD, BULK, RETRY, CLASSIFIED, DLQ, HANDOFF);

    private Topics() {
    }

    private static Topic<String, byte[]> bytes(String name) {
        return new Topic<>(name, Serdes.String(), Serdes.ByteArray());
    }

    public static Topic<String, byte[]> of(Priority priority) {
        return switch (priority) {
            case INTERACTIVE -> INTERACTIVE;
            case STANDARD -> STANDARD;
            case BULK -> BULK;
        };
    }
}
