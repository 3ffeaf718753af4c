package io.quotaflow.testkit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A transaction left open, as a producer that died mid-transaction leaves it: {@code transactionalId}
 * with its {@code transaction.timeout.ms}, one record written to {@code partition} and never committed.
 * Closing the returned producer does not end the transaction; the coordinator (or whoever fences the
 * id) does.
 */
public final class OpenTransaction {

    private OpenTransaction() {
    }

    public static KafkaProducer<String, String> open(String bootstrapServers, String transactionalId, int timeoutMs,
                                                     TopicPartition partition)
            throws ExecutionException, InterruptedException, TimeoutException {
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId, ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeoutMs),
                new StringSerializer(), new StringSerializer());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(partition.topic(), partition.partition(), "k", transactionalId)).get(30, TimeUnit.SECONDS);
        return producer;
    }
}
