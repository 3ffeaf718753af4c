package io.quotaflow.it;

import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.failure.FailureHeaders;
import io.quotaflow.ticket.WorkItem;
import io.quotaflow.records.Priority;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * No single record can stop the pipeline: records near and over Kafka's 1 MiB limit, written by a
 * producer that allows 12 MB (lz4), followed by ordinary tickets. Every ordinary ticket is
 * classified, every big one is classified or dead-lettered (truncated, with its size and SHA-256),
 * no stream thread fails and the instance stays ready.
 */
class OversizedRecordsIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-oversized", 1_000, 1_000_000, 20);

    private static String ticket(String id, String text, String extraField, int extraBytes) {
        StringBuilder sb = new StringBuilder("{\"id\":\"").append(id).append("\",\"subject\":\"").append(text)
                .append("\",\"body\":\"Please help, ").append(text).append("\"");
        if (extraBytes > 0) {
            sb.append(",\"").append(extraField).append("\":\"");
            SplittableRandom random = new SplittableRandom(id.hashCode());
            for (int i = 0; i < extraBytes; i++) {
                sb.append((char) ('a' + random.nextInt(26)));
            }
            sb.append('"');
        }
        return sb.append('}').toString();
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyOrDeadLetterEveryBigRecordAndKeepGoing() throws Exception {
        Map<String, byte[]> big = new HashMap<>();
        big.put("BIG-800K", ticket("BIG-800K", "invoice charged twice", "attachment", 800_000).getBytes(StandardCharsets.UTF_8));
        byte[] notJson = new byte[1_048_000];
        new SplittableRandom(1).nextBytes(notJson);
        for (int i = 0; i < notJson.length; i++) {
            notJson[i] = (byte) ('A' + (notJson[i] & 0x0f));
        }
        big.put("BIG-NOT-JSON", notJson);
        for (int i = 0; i < 10; i++) {
            big.put("BIG-100K-" + i, ticket("BIG-100K-" + i, "password reset fails", "log", 100_000).getBytes(StandardCharsets.UTF_8));
        }
        // 10 MB that compress to a few kB: the broker accepts them
        big.put("BIG-10M", ("{\"id\":\"BIG-10M\",\"subject\":\"parcel lost\",\"body\":\"where is my delivery\",\"log\":\""
                + "x".repeat(10_000_000) + "\"}").getBytes(StandardCharsets.UTF_8));
        big.put("BIG-10M-NOT-JSON", "y".repeat(10_000_000).getBytes(StandardCharsets.UTF_8));

        Set<String> ordinary = new LinkedHashSet<>();
        Map<String, Object> producerProps = KafkaClients.properties(Map.of(), it.bootstrapServers(), Map.of());
        producerProps.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 12 * 1024 * 1024);
        producerProps.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        producerProps.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 64L * 1024 * 1024);
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer())) {
            for (Map.Entry<String, byte[]> e : big.entrySet()) {
                ProducerRecord<String, byte[]> r = new ProducerRecord<>(it.topics().input(Priority.STANDARD), e.getKey(), e.getValue());
                r.headers().add("trace-id", ("trace-" + e.getKey()).getBytes(StandardCharsets.UTF_8));
                // forged: must not reach the dead letter
                r.headers().add(DeadLetterHeaders.ORIGIN_TOPIC, "forged".getBytes(StandardCharsets.UTF_8));
                producer.send(r).get();
            }
            for (int i = 0; i < 30; i++) {
                String id = "SMALL-" + i;
                ordinary.add(id);
                producer.send(new ProducerRecord<>(it.topics().input(Priority.STANDARD), id,
                        ticket(id, "my order " + i + " has not arrived", "x", 0).getBytes(StandardCharsets.UTF_8))).get();
            }
        }

        QuotaflowConfig base = it.config("quotaflow-oversized", QuotaSettings.ofDefaults().withRpm(1_000).withTpm(1_000_000),
                RetrySettings.ofDefaults());
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), 0, base.kafka(),
                base.dispatcher());
        HttpClient http = HttpClient.newHttpClient();
        List<Integer> readiness = new ArrayList<>();
        try (Pipeline pipeline = Pipeline.start(config);
             OutcomeCounter counter = it.counter()) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            URI ready = URI.create("http://localhost:" + pipeline.httpPort() + "/health/ready");
            Set<String> all = new LinkedHashSet<>(ordinary);
            all.addAll(big.keySet());
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(300)).until(() -> {
                counter.poll(Duration.ofMillis(100));
                readiness.add(http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding()).statusCode());
                return counter.accountedFor(all) == all.size();
            });
            ItSupport.awaitQuiet(Duration.ofSeconds(1), counter);

            assertThat(counter.classifiedIds()).containsAll(ordinary)
                    .contains("BIG-800K", "BIG-10M").containsAll(big.keySet().stream().filter(k -> k.startsWith("BIG-100K")).toList());
            assertThat(counter.deadLetters()).containsOnlyKeys("BIG-NOT-JSON", "BIG-10M-NOT-JSON")
                    .containsEntry("BIG-NOT-JSON", "bad-input");
            assertThat(counter.duplicates()).isZero();
            assertThat(pipeline.metrics().threadFailureCount()).isZero();
            assertThat(pipeline.metrics().recordErrorCount()).isZero();
            assertThat(pipeline.streams().metadataForLocalThreads()).isNotEmpty();
            assertThat(readiness).isNotEmpty().containsOnly(200);
            assertThat(it.sim.stats().http429()).isZero();
        }

        // the dead letters are truncated below the limit and say what they stand for
        Map<String, Object> consumerProps = KafkaClients.properties(Map.of(), it.bootstrapServers(), Map.of());
        consumerProps.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> parts = consumer.partitionsFor(it.topics().dlq()).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(parts);
            consumer.seekToBeginning(parts);
            Map<String, ConsumerRecord<String, byte[]>> letters = new HashMap<>();
            long deadline = System.currentTimeMillis() + 20_000;
            while (letters.size() < 2 && System.currentTimeMillis() < deadline) {
                consumer.poll(Duration.ofMillis(300)).forEach(r -> letters.put(r.key(), r));
            }
            ConsumerRecord<String, byte[]> letter = letters.get("BIG-NOT-JSON");
            assertThat(letter.value().length).isLessThan(1_000_000);
            assertThat(header(letter, DeadLetterHeaders.VALUE_TRUNCATED)).isEqualTo("true");
            assertThat(header(letter, DeadLetterHeaders.ORIGINAL_SIZE)).isEqualTo("1048000");
            assertThat(header(letter, DeadLetterHeaders.ORIGINAL_SHA256)).isEqualTo(WorkItem.sha256(notJson));
            assertThat(header(letter, DeadLetterHeaders.ORIGIN_TOPIC)).isEqualTo(it.topics().input(Priority.STANDARD));
            assertThat(header(letter, "trace-id")).isEqualTo("trace-BIG-NOT-JSON");
            ConsumerRecord<String, byte[]> huge = letters.get("BIG-10M-NOT-JSON");
            assertThat(header(huge, DeadLetterHeaders.ORIGINAL_SIZE)).isEqualTo("10000000");
            assertThat(header(huge, DeadLetterHeaders.ERROR_KIND)).isIn("bad-input", "too-large");
        }
    }

    private static String header(ConsumerRecord<String, byte[]> r, String key) {
        return FailureHeaders.string(r.headers(), key).orElse(null);
    }
}
