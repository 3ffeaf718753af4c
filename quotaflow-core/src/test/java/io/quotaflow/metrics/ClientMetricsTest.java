package io.quotaflow.metrics;

import io.quotaflow.testkit.ManualTime;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The consumer lag gauge and the curated Kafka metrics, read from a Kafka Streams application's metrics. */
class ClientMetricsTest {

    private static final String UUID = "e382aefd-f047-4128-82cf-94ca7ad62380";
    private static final String THREAD_1 = "app-" + UUID + "-StreamThread-1";
    private static final String THREAD_2 = "app-" + UUID + "-StreamThread-2";

    private final Map<MetricName, Metric> metrics = new LinkedHashMap<>();

    private void put(String group, String name, Object value, String... tags) {
        Map<String, String> t = new HashMap<>();
        for (int i = 0; i < tags.length; i += 2) {
            t.put(tags[i], tags[i + 1]);
        }
        MetricName n = new MetricName(name, group, "", t);
        metrics.put(n, new Metric() {
            @Override
            public MetricName metricName() {
                return n;
            }

            @Override
            public Object metricValue() {
                return value;
            }
        });
    }

    private void lag(String client, String topicTag, int partition, double value) {
        put("consumer-fetch-manager-metrics", "records-lag", value, "client-id", client, "topic", topicTag, "partition",
                Integer.toString(partition));
    }

    private ClientMetrics clients(ManualTime clock) {
        ClientMetrics clients = new ClientMetrics(clock);
        clients.watch(() -> Map.copyOf(metrics));
        return clients;
    }

    @Test
    void shouldSumTheStreamThreadsLagPerTopicCountingEachPartitionOnce() {
        // Kafka tags each partition's lag twice: with the topic's name and with its dots as underscores
        lag(THREAD_1 + "-consumer", "p.tickets.bulk", 0, 10);
        lag(THREAD_1 + "-consumer", "p_tickets_bulk", 0, 10);
        lag(THREAD_2 + "-consumer", "p.tickets.bulk", 1, 5);
        lag(THREAD_2 + "-consumer", "p_tickets_bulk", 1, 5);
        lag(THREAD_1 + "-restore-consumer", "p.tickets.bulk", 2, 1000);
        lag(THREAD_1 + "-consumer", "p.tickets.standard", 0, Double.NaN);
        lag(THREAD_1 + "-consumer", "p_tickets_retry", 0, 7);
        ClientMetrics clients = clients(new ManualTime(0));
        assertThat(ConsumerLag.lag(clients.values(), "p.tickets.bulk")).as("restore consumers are not the pipeline's lag").isEqualTo(15);
        assertThat(ConsumerLag.lag(clients.values(), "p.tickets.standard")).isZero();
        assertThat(ConsumerLag.lag(clients.values(), "p.tickets.retry")).as("only the underscored spelling present").isEqualTo(7);
        assertThat(ConsumerLag.lag(clients.values(), "p.tickets.interactive")).isZero();
    }

    @Test
    void shouldReadTheClientsAtMostOnceASecond() {
        AtomicInteger reads = new AtomicInteger();
        ManualTime clock = new ManualTime(1_000);
        ClientMetrics clients = new ClientMetrics(clock);
        assertThat(clients.values()).as("nothing to read before the application exists").isEmpty();
        clients.watch(() -> {
            reads.incrementAndGet();
            return Map.copyOf(metrics);
        });
        lag(THREAD_1 + "-consumer", "t", 0, 3);
        for (int i = 0; i < 50; i++) {
            assertThat(ConsumerLag.lag(clients.values(), "t")).isEqualTo(3);
        }
        assertThat(reads).hasValue(1);
        clock.advanceMs(ClientMetrics.REFRESH_MS);
        clients.values();
        assertThat(reads).hasValue(2);
    }

    @Test
    void shouldCombineTheThreadsIntoOneSeriesInBaseUnits() {
        put("stream-thread-metrics", "process-total", 100.0, "thread-id", THREAD_1);
        put("stream-thread-metrics", "process-total", 50.0, "thread-id", THREAD_2);
        put("stream-thread-metrics", "commit-latency-max", 40.0, "thread-id", THREAD_1);
        put("stream-thread-metrics", "commit-latency-max", 250.0, "thread-id", THREAD_2);
        put("consumer-fetch-manager-metrics", "records-lag-max", 12.0, "client-id", THREAD_1 + "-consumer");
        put("consumer-fetch-manager-metrics", "records-lag-max", 900.0, "client-id", THREAD_1 + "-restore-consumer");
        put("consumer-fetch-manager-metrics", "records-lag-max", 77.0, "client-id", THREAD_1 + "-consumer", "topic", "t",
                "partition", "0");
        put("producer-metrics", "record-error-total", 2.0, "client-id", THREAD_1 + "-producer");
        put("producer-metrics", "record-error-total", 1.0, "client-id", THREAD_2 + "-producer");
        put("stream-thread-metrics", "commit-latency-avg", Double.NaN, "thread-id", THREAD_1);
        Map<MetricName, Double> values = clients(new ManualTime(0)).values();

        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.stream.processed.records"), 0)).isEqualTo(150);
        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.stream.commit.latency.max.seconds"), 0)).isCloseTo(0.25, within(1e-9));
        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.consumer.records.lag.max"), 0))
                .as("the stream threads' consumer, not a restore consumer, not a partition's own metric").isEqualTo(12);
        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.producer.record.errors"), 0)).isEqualTo(3);
        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.stream.commit.latency.avg.seconds"), Double.NaN))
                .as("NaN in Kafka: no value").isNaN();
        assertThat(KafkaCuratedMetrics.value(values, curated("kafka.stream.commits"), 0)).as("absent: a counter at zero").isZero();
    }

    @Test
    void shouldCurateOnlyNamesFreeOfClientIdsAndUnitAbbreviations() {
        assertThat(KafkaCuratedMetrics.CURATED).allSatisfy(c -> {
            assertThat(c.meter()).startsWith("kafka.").doesNotContain(".ms", ".ns", "client", "thread.id");
            assertThat(c.help()).isNotBlank();
        });
    }

    private static KafkaCuratedMetrics.Curated curated(String meter) {
        return KafkaCuratedMetrics.CURATED.stream().filter(c -> c.meter().equals(meter)).findFirst().orElseThrow();
    }
}
