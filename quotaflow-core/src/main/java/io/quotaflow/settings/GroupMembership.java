package io.quotaflow.settings;

import java.util.Map;
import java.util.TreeMap;

/**
 * How fast the group notices an instance that died without leaving it (a crash, a SIGKILL, a lost
 * host): Kafka's {@code session.timeout.ms} and {@code heartbeat.interval.ms} of the Streams
 * application's consumers. A dead instance's tasks, and with them its quota scopes, move to the
 * others only once its session has expired; an instance restarted within its session (same
 * {@code instance.id}) keeps its tasks without a rebalance.
 *
 * <p>Kafka's defaults (45 s and 3 s) left a dead instance's scopes idle for about 48 s in the
 * failover benchmark (docs/benchmark.md, "Failover"); 6 s (the lowest session a broker accepts by
 * default, {@code group.min.session.timeout.ms}) and 1 s heartbeats bring that to under 10 s. The
 * price: a restart slower than the session (a JVM and stores starting on a busy host) moves the
 * tasks away and, later, back; a stall of the heartbeat thread longer than 6 s (a very long GC
 * pause, a host frozen) is taken for a death.
 *
 * @param sessionTimeoutMs    {@code session.timeout.ms}
 * @param heartbeatIntervalMs {@code heartbeat.interval.ms}
 */
public record GroupMembership(int sessionTimeoutMs, int heartbeatIntervalMs) {

    public static final int DEFAULT_SESSION_TIMEOUT_MS = 6_000;
    public static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 1_000;

    public GroupMembership {
        QuotaSettings.require(sessionTimeoutMs > 0, "instance.session-timeout-ms must be > 0");
        QuotaSettings.require(heartbeatIntervalMs > 0 && heartbeatIntervalMs < sessionTimeoutMs,
                "instance.heartbeat-interval-ms must be > 0 and below instance.session-timeout-ms");
    }

    public static GroupMembership ofDefaults() {
        return new GroupMembership(DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_HEARTBEAT_INTERVAL_MS);
    }

    /**
     * {@code kafka} with these settings added where it does not set them itself (a {@code kafka.*}
     * key wins). Under the streams rebalance protocol ({@code group.protocol=streams}) the broker's
     * streams-group settings govern both, and {@code kafka} is returned as it is.
     */
    public Map<String, String> applyTo(Map<String, String> kafka) {
        Map<String, String> out = new TreeMap<>(kafka);
        if ("streams".equalsIgnoreCase(String.valueOf(kafka.get("group.protocol")).strip())) {
            return out;
        }
        out.putIfAbsent("session.timeout.ms", Integer.toString(sessionTimeoutMs));
        out.putIfAbsent("heartbeat.interval.ms", Integer.toString(heartbeatIntervalMs));
        return out;
    }
}
