package io.quotaflow.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.common.MetricName;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@code metrics.kafka=curated}: a short allow-list of the Kafka clients' and Kafka Streams' metrics an
 * operator reads (lag, rebalances, producer errors and retries, commit latency, processing, thread
 * counts), one series each per instance: the values of the application's stream threads are summed
 * (or their maximum taken), so no series carries a client id, a thread id or the process UUID they
 * contain, and a replaced thread does not start new series. Milliseconds become seconds. A value
 * Kafka does not have yet (an average over a window without events) is left off the page
 * ({@link MetricsText}). The full per-client set, thousands of series per instance, stays off.
 */
public final class KafkaCuratedMetrics {

    /** How the threads' values make one. */
    enum Combine { SUM, MAX }

    /**
     * One curated metric.
     *
     * @param meter   its Micrometer name (Prometheus: dots as underscores, {@code _total} on counters)
     * @param group   the Kafka metric group
     * @param name    the Kafka metric name
     * @param client  which clients' metrics count (by their {@code client-id} tag)
     * @param combine sum or maximum over those clients
     * @param scale   factor to the base unit (0.001: milliseconds to seconds)
     * @param counter a cumulative count (a counter), else a gauge
     * @param help    its HELP text
     */
    record Curated(String meter, String group, String name, Predicate<String> client, Combine combine, double scale,
                   boolean counter, String help) {
    }

    private static final Predicate<String> MAIN_CONSUMER = ClientMetrics::mainConsumer;
    private static final Predicate<String> PRODUCER = c -> c.endsWith("-producer");
    private static final Predicate<String> ANY = c -> true;
    private static final String CONSUMER_FETCH = "consumer-fetch-manager-metrics";
    private static final String COORDINATOR = "consumer-coordinator-metrics";
    private static final String PRODUCER_METRICS = "producer-metrics";
    private static final String STREAMS = "stream-metrics";
    private static final String THREAD = "stream-thread-metrics";
    /** Tags of a metric narrower than a client or a thread: such metrics are never curated. */
    private static final Set<String> NARROW = Set.of("topic", "partition", "node-id", "task-id", "processor-node-id", "store-id");

    /** The allow-list. */
    static final List<Curated> CURATED = List.of(
            new Curated("kafka.consumer.records.lag.max", CONSUMER_FETCH, "records-lag-max", MAIN_CONSUMER, Combine.MAX, 1, false,
                    "largest lag in records of any partition the stream threads read, over the metrics window"),
            new Curated("kafka.consumer.records.consumed", CONSUMER_FETCH, "records-consumed-total", MAIN_CONSUMER, Combine.SUM, 1,
                    true, "records the stream threads' consumers read"),
            new Curated("kafka.consumer.rebalances", COORDINATOR, "rebalance-total", MAIN_CONSUMER, Combine.SUM, 1, true,
                    "rebalances the stream threads' consumers took part in"),
            new Curated("kafka.consumer.failed.rebalances", COORDINATOR, "failed-rebalance-total", MAIN_CONSUMER, Combine.SUM, 1, true,
                    "rebalances that failed"),
            new Curated("kafka.producer.records.sent", PRODUCER_METRICS, "record-send-total", PRODUCER, Combine.SUM, 1, true,
                    "records the stream threads' producers sent"),
            new Curated("kafka.producer.record.errors", PRODUCER_METRICS, "record-error-total", PRODUCER, Combine.SUM, 1, true,
                    "records the stream threads' producers failed to send"),
            new Curated("kafka.producer.record.retries", PRODUCER_METRICS, "record-retry-total", PRODUCER, Combine.SUM, 1, true,
                    "record sends the stream threads' producers retried"),
            new Curated("kafka.stream.alive.threads", STREAMS, "alive-stream-threads", ANY, Combine.SUM, 1, false,
                    "stream threads running"),
            new Curated("kafka.stream.failed.threads", STREAMS, "failed-stream-threads", ANY, Combine.SUM, 1, true,
                    "stream threads that died"),
            new Curated("kafka.stream.processed.records", THREAD, "process-total", ANY, Combine.SUM, 1, true,
                    "records the stream threads processed"),
            new Curated("kafka.stream.process.rate", THREAD, "process-rate", ANY, Combine.SUM, 1, false,
                    "records the stream threads process per second, over the metrics window"),
            new Curated("kafka.stream.commits", THREAD, "commit-total", ANY, Combine.SUM, 1, true,
                    "commits (transactions) of the stream threads"),
            new Curated("kafka.stream.commit.latency.avg.seconds", THREAD, "commit-latency-avg", ANY, Combine.MAX, 0.001, false,
                    "average commit time of the slowest stream thread, over the metrics window"),
            new Curated("kafka.stream.commit.latency.max.seconds", THREAD, "commit-latency-max", ANY, Combine.MAX, 0.001, false,
                    "longest commit of any stream thread, over the metrics window"));

    /** The Micrometer names of the allow-list (what {@link PageMeterFilter} lets through under {@code kafka.}). */
    static final Set<String> NAMES = Set.copyOf(CURATED.stream().map(Curated::meter).toList());

    private KafkaCuratedMetrics() {
    }

    /**
     * Registers every curated metric, reading {@code clients}. The counters hold {@code clients} weakly
     * (Micrometer's function counters do): the caller keeps it (the pipeline does, for its lifetime).
     */
    public static void register(MeterRegistry registry, ClientMetrics clients) {
        for (Curated c : CURATED) {
            String help = c.help() + " (metrics.kafka=curated; Kafka's " + c.group() + " " + c.name() + ")";
            if (c.counter()) {
                FunctionCounter.builder(c.meter(), clients, m -> value(m.values(), c, 0)).description(help).register(registry);
            } else {
                Gauge.builder(c.meter(), clients, m -> value(m.values(), c, Double.NaN)).description(help).strongReference(true)
                        .register(registry);
            }
        }
    }

    /** The curated value of {@code c} over {@code values}, or {@code none} when no client has it. */
    static double value(Map<MetricName, Double> values, Curated c, double none) {
        double out = Double.NaN;
        for (Map.Entry<MetricName, Double> e : values.entrySet()) {
            MetricName n = e.getKey();
            if (!n.name().equals(c.name()) || !n.group().equals(c.group()) || n.tags().keySet().stream().anyMatch(NARROW::contains)
                    || !c.client().test(n.tags().getOrDefault("client-id", ""))) {
                continue;
            }
            double v = e.getValue() * c.scale();
            out = Double.isNaN(out) ? v : c.combine() == Combine.SUM ? out + v : Math.max(out, v);
        }
        return Double.isNaN(out) ? none : out;
    }
}
