package io.quotaflow.metrics;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.utils.Time;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The numeric, finite values of the Kafka clients' metrics of one application (Kafka Streams'
 * {@code metrics()}: its consumers, producers and threads), read at most once a second however many
 * gauges and scrapes ask. Empty until {@link #watch} names the application.
 */
public final class ClientMetrics {

    static final long REFRESH_MS = 1_000;

    private final Time time;
    private volatile Supplier<Map<MetricName, ? extends Metric>> source = Map::of;
    private Map<MetricName, Double> last = Map.of();
    private long lastReadMs = Long.MIN_VALUE;

    public ClientMetrics(Time time) {
        this.time = Objects.requireNonNull(time, "time");
    }

    /** Reads {@code metrics} from now on (a Kafka Streams application's {@code metrics()}). */
    public void watch(Supplier<Map<MetricName, ? extends Metric>> metrics) {
        this.source = Objects.requireNonNull(metrics, "metrics");
        synchronized (this) {
            lastReadMs = Long.MIN_VALUE;
        }
    }

    /** Every metric with a finite numeric value now (at most a second old). */
    synchronized Map<MetricName, Double> values() {
        long now = time.milliseconds();
        if (lastReadMs != Long.MIN_VALUE && now - lastReadMs < REFRESH_MS) {
            return last;
        }
        Map<MetricName, Double> out = new HashMap<>();
        try {
            for (Map.Entry<MetricName, ? extends Metric> e : source.get().entrySet()) {
                if (e.getValue().metricValue() instanceof Number n && Double.isFinite(n.doubleValue())) {
                    out.put(e.getKey(), n.doubleValue());
                }
            }
        } catch (RuntimeException e) {
            // the application is closing: keep what was last read
            return last;
        }
        last = out;
        lastReadMs = now;
        return out;
    }

    /** A stream thread's consumer: {@code …-StreamThread-N-consumer}, not a restore or global consumer. */
    static boolean mainConsumer(String clientId) {
        return clientId.endsWith("-consumer") && !clientId.endsWith("-restore-consumer") && !clientId.endsWith("-global-consumer");
    }
}
