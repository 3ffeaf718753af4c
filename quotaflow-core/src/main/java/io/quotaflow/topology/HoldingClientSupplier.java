package io.quotaflow.topology;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

import java.util.Map;

/**
 * Kafka Streams' clients as its own default supplier makes them, with each stream thread's main
 * consumer under an {@link IntakeHold} ({@link HoldingConsumer}). The restore and global consumers
 * are plain.
 */
public final class HoldingClientSupplier implements KafkaClientSupplier {

    private final IntakeHold hold;
    private final Runnable onHold;

    /** Clients whose main consumers hold as {@code hold} says, calling {@code onHold} (on a stream thread) as each hold begins. */
    public HoldingClientSupplier(IntakeHold hold, Runnable onHold) {
        this.hold = hold;
        this.onHold = onHold;
    }

    @Override
    public Admin getAdmin(Map<String, Object> config) {
        return Admin.create(config);
    }

    @Override
    public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
        return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
        return HoldingConsumer.wrap(plain(config), hold, onHold);
    }

    @Override
    public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
        return plain(config);
    }

    @Override
    public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
        return plain(config);
    }

    private static Consumer<byte[], byte[]> plain(Map<String, Object> config) {
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
