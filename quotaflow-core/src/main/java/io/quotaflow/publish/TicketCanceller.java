package io.quotaflow.publish;

import io.quotaflow.settings.TopicNames;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/**
 * Writes cancellation tombstones: for each ticket key ({@code tenant:id}, or the id for the default
 * tenant), a record with that key and a null value on each priority topic asked for (under {@code topics.prefix}). The pipeline withdraws a ticket it
 * holds and has not sent when its tombstone arrives, and counts (and otherwise ignores) one for an
 * id nobody holds (docs/design.md, "Cancellation"), so writing to all three priority topics is safe
 * when the caller does not know where the ticket went.
 *
 * <p>The producer is idempotent ({@code acks=all}); {@link #cancel} flushes before it returns.
 */
public final class TicketCanceller implements AutoCloseable {

    private final Producer<String, byte[]> producer;
    private final TopicNames topics;

    /** A producer to {@code bootstrapServers} with extra client properties (security settings, ...). */
    public TicketCanceller(String bootstrapServers, Map<String, ?> clientProperties, TopicNames topics) {
        this(new KafkaProducer<>(producerConfig(bootstrapServers, clientProperties),
                new StringSerializer(), new ByteArraySerializer()), topics);
    }

    /** Uses a producer made elsewhere (a {@code MockProducer} in tests); {@link #close()} closes it. */
    public TicketCanceller(Producer<String, byte[]> producer, TopicNames topics) {
        this.producer = Objects.requireNonNull(producer, "producer");
        this.topics = Objects.requireNonNull(topics, "topics");
    }

    /** The producer configuration used by {@link #TicketCanceller(String, Map, TopicNames)}. */
    public static Map<String, Object> producerConfig(String bootstrapServers, Map<String, ?> clientProperties) {
        return io.quotaflow.admin.KafkaClients.properties(Map.of(
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.CLIENT_ID_CONFIG, "quotaflow-cancel"), bootstrapServers, clientProperties);
    }

    /**
     * Writes a tombstone for every id (each id once, in the order given) to the topic of every
     * priority in {@code priorities}, and waits for the broker's answers.
     *
     * @return one outcome per distinct id, in the order given
     */
    public List<CancelOutcome> cancel(List<String> ids, List<Priority> priorities) {
        Objects.requireNonNull(ids, "ids");
        if (priorities.isEmpty()) {
            throw new IllegalArgumentException("at least one priority topic is needed");
        }
        Map<String, List<Send>> sends = new LinkedHashMap<>();
        for (String id : new LinkedHashSet<>(ids)) {
            if (id == null || id.isBlank()) {
                throw new IllegalArgumentException("a ticket id must not be blank");
            }
            List<Send> perTopic = new ArrayList<>();
            for (Priority priority : priorities) {
                String topic = topics.input(priority);
                perTopic.add(new Send(topic, send(new ProducerRecord<>(topic, id, null))));
            }
            sends.put(id, perTopic);
        }
        producer.flush();
        List<CancelOutcome> outcomes = new ArrayList<>();
        sends.forEach((id, perTopic) -> outcomes.add(outcome(id, perTopic)));
        return outcomes;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(30));
    }

    private Future<RecordMetadata> send(ProducerRecord<String, byte[]> record) {
        try {
            return producer.send(record);
        } catch (RuntimeException e) { // e.g. the producer is closed: fails synchronously
            return CompletableFuture.failedFuture(e);
        }
    }

    private static CancelOutcome outcome(String id, List<Send> perTopic) {
        List<Accepted> written = new ArrayList<>();
        String failedTopic = null;
        String error = null;
        for (Send send : perTopic) {
            try {
                RecordMetadata metadata = send.result().get();
                written.add(Accepted.of(id, metadata));
            } catch (ExecutionException | InterruptedException e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                if (failedTopic == null) {
                    failedTopic = send.topic();
                    error = oneLine(e instanceof ExecutionException ? e.getCause() : e);
                }
            }
        }
        return failedTopic == null ? new CancelOutcome.Written(id, written)
                : new CancelOutcome.Failed(id, written, failedTopic, error);
    }

    private static String oneLine(Throwable e) {
        return e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    private record Send(String topic, Future<RecordMetadata> result) {
    }
}
