package io.quotaflow.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(KafkaBrokerExtension.class)
class EmbeddedKafkaBrokerIT {

    @Test
    void shouldExposeOnlyCommittedTransactionsToReadCommittedConsumers(EmbeddedKafkaBroker broker) throws Exception {
        String topic = KafkaBrokerExtension.uniqueName("tx");
        String group = KafkaBrokerExtension.uniqueName("tx-group");
        TopicPartition partition = new TopicPartition(topic, 0);
        try (Admin admin = admin(broker)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.TRANSACTIONAL_ID_CONFIG, KafkaBrokerExtension.uniqueName("tx-id"),
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                producer.initTransactions();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "k1", "committed-1"));
                producer.send(new ProducerRecord<>(topic, "k2", "committed-2"));
                // what Kafka Streams does with exactly_once_v2: offsets commit with the output
                producer.sendOffsetsToTransaction(Map.of(partition, new OffsetAndMetadata(42)),
                        new ConsumerGroupMetadata(group));
                producer.commitTransaction();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "k3", "aborted"));
                producer.flush();
                producer.abortTransaction();

                producer.beginTransaction();
                producer.send(new ProducerRecord<>(topic, "k4", "committed-3"));
                producer.commitTransaction();
            }

            assertThat(readCommitted(broker, topic, 3)).containsExactly("committed-1", "committed-2", "committed-3");
            assertThat(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                    .get(30, TimeUnit.SECONDS).get(partition).offset()).isEqualTo(42);
        }
    }

    @Test
    void shouldDeleteItsTemporaryDirectoryOnCloseAndTolerateASecondClose() {
        EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start();
        Path dir = broker.dataDir();
        try {
            assertThat(broker.bootstrapServers()).matches("localhost:\\d+").endsWith(":" + broker.port());
            assertThat(dir).isDirectory();
            assertThat(dir.resolve("meta.properties")).isRegularFile();
        } finally {
            broker.close();
        }
        assertThat(dir).doesNotExist();
        broker.close();
    }

    @Test
    void shouldKeepTopicsAndRecordsAcrossRestartsOnAGivenDirectory(@TempDir Path dir) throws Exception {
        String topic = "restart-topic";
        String clusterId;
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir);
             Admin admin = admin(broker)) {
            clusterId = admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS);
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get(30, TimeUnit.SECONDS);
                }
            }
        }
        assertThat(dir.resolve("meta.properties")).isRegularFile();

        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start(0, dir);
             Admin admin = admin(broker)) {
            assertThat(broker.dataDir()).isEqualTo(dir.toAbsolutePath().normalize());
            assertThat(admin.describeCluster().clusterId().get(30, TimeUnit.SECONDS)).isEqualTo(clusterId);
            assertThat(admin.describeTopics(Set.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                    .get(topic).partitions()).hasSize(2);
            assertThat(readCommitted(broker, topic, 3)).containsExactlyInAnyOrder("v0", "v1", "v2");
        }
        assertThat(dir).isDirectory();
    }

    @Test
    void shouldFailWithAClearErrorWhenThePortIsTaken(EmbeddedKafkaBroker shared) {
        assertThatThrownBy(() -> EmbeddedKafkaBroker.start(shared.port(), null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("cannot start the embedded Kafka broker: port " + shared.port()
                        + " on localhost is already in use");
        // the shared broker is unaffected
        try (Admin admin = admin(shared)) {
            assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(1);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static Admin admin(EmbeddedKafkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static List<String> readCommitted(EmbeddedKafkaBroker broker, String topic, int expected) {
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (values.size() < expected && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            // anything beyond the expected count (e.g. aborted records) would show up here
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                values.add(record.value());
            }
        }
        return values;
    }
}
