package io.quotaflow.settings;

import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * How fast the others take over from an instance that died without leaving the group (a crash, a
 * SIGKILL, a lost host). Its tasks, and with them its quota scopes, move once its session has
 * expired (Kafka's {@code session.timeout.ms}, with {@code heartbeat.interval.ms}); a moved task
 * then restores its stores from their changelogs, which the dead instance's open transaction holds
 * until the transaction coordinator aborts it ({@code transaction.timeout.ms} after it began, at
 * the coordinator's next scan for timed-out transactions). An instance restarted within its
 * session (same {@code instance.id}) keeps its tasks without a rebalance.
 *
 * <p>Kafka's defaults (45 s, 3 s; Kafka Streams' 10 s transactions) left a dead instance's scopes
 * idle for 47–52 s in the failover benchmark, the defaults below for 10.0 s on average (9.0–11.9 s;
 * with 1 s heartbeats 10.5 s, 8.4–13.3 s: the session expires sooner after the last heartbeat, and
 * the survivors hear of each of the cooperative rebalance's rounds sooner; docs/benchmark.md,
 * "Failover"). The price of shorter ones: a restart slower than the session moves the tasks away
 * and, later, back; a stall of the heartbeat thread longer than the session, or of a commit longer
 * than the transaction timeout (a very long GC pause, a host starved of CPU), is taken for a death.
 * Heartbeats every 500 ms cost one request per consumer each time, against the group coordinator.
 *
 * @param sessionTimeoutMs     {@code session.timeout.ms}
 * @param heartbeatIntervalMs  {@code heartbeat.interval.ms}
 * @param transactionTimeoutMs {@code transaction.timeout.ms} of the Streams producers
 */
public record GroupMembership(int sessionTimeoutMs, int heartbeatIntervalMs, int transactionTimeoutMs) {

    public static final int DEFAULT_SESSION_TIMEOUT_MS = 6_000;
    public static final int DEFAULT_HEARTBEAT_INTERVAL_MS = 500;
    public static final int DEFAULT_TRANSACTION_TIMEOUT_MS = 5_000;

    public GroupMembership {
        QuotaSettings.require(sessionTimeoutMs > 0, "instance.session-timeout-ms must be > 0");
        QuotaSettings.require(heartbeatIntervalMs > 0 && heartbeatIntervalMs < sessionTimeoutMs,
                "instance.heartbeat-interval-ms must be > 0 and below instance.session-timeout-ms");
        QuotaSettings.require(transactionTimeoutMs >= 1_000, "instance.transaction-timeout-ms must be >= 1000");
    }

    /** The Streams property {@code instance.takeover-credit=off} sets: a new owner credits nothing ({@link #takeoverBound}). */
    public static final String TAKEOVER_CREDIT_CONFIG = "quotaflow.takeover.credit";
    /** Kafka's own default of {@code session.timeout.ms}, which {@code ConsumerConfig} does not export. */
    private static final long KAFKA_SESSION_TIMEOUT_MS = 45_000;
    private static final String SESSION_TIMEOUT = "session.timeout.ms";

    /**
     * From a Streams application's configs: how long ago, at least, a previous owner of a task that
     * died sent the calls it never committed, which is its group session, after which its tasks moved
     * ({@code session.timeout.ms} as the main consumer has it, Kafka's 45 s when unset). Zero (credit
     * nothing) under the streams rebalance protocol, whose session the broker sets, and with
     * {@code instance.takeover-credit=off} (docs/design.md, "Limiter").
     */
    public static Duration takeoverBound(Map<String, ?> configs) {
        if (isStreamsProtocol(configs.get("group.protocol"))
                || "off".equalsIgnoreCase(String.valueOf(configs.get(TAKEOVER_CREDIT_CONFIG)).strip())) {
            return Duration.ZERO;
        }
        Object value = configs.get("main.consumer." + SESSION_TIMEOUT);
        if (value == null) {
            value = configs.get("consumer." + SESSION_TIMEOUT);
        }
        if (value == null) {
            value = configs.get(SESSION_TIMEOUT);
        }
        try {
            return Duration.ofMillis(value == null ? KAFKA_SESSION_TIMEOUT_MS : Long.parseLong(value.toString().strip()));
        } catch (NumberFormatException e) {
            return Duration.ZERO;
        }
    }

    /** Whether {@code protocol} (a {@code group.protocol} value, or null) is the streams rebalance protocol (KIP-1071). */
    public static boolean isStreamsProtocol(Object protocol) {
        return "streams".equalsIgnoreCase(String.valueOf(protocol).strip());
    }

    public static GroupMembership ofDefaults() {
        return new GroupMembership(DEFAULT_SESSION_TIMEOUT_MS, DEFAULT_HEARTBEAT_INTERVAL_MS, DEFAULT_TRANSACTION_TIMEOUT_MS);
    }

    /**
     * {@code kafka} with these settings added where it does not set them itself (a {@code kafka.*}
     * key wins). Under the streams rebalance protocol ({@code group.protocol=streams}) the broker's
     * streams-group settings govern the session and the heartbeats, and only the transaction
     * timeout is added.
     */
    public Map<String, String> applyTo(Map<String, String> kafka) {
        Map<String, String> out = new TreeMap<>(kafka);
        out.putIfAbsent("transaction.timeout.ms", Integer.toString(transactionTimeoutMs));
        if (isStreamsProtocol(kafka.get("group.protocol"))) {
            return out;
        }
        out.putIfAbsent(SESSION_TIMEOUT, Integer.toString(sessionTimeoutMs));
        out.putIfAbsent("heartbeat.interval.ms", Integer.toString(heartbeatIntervalMs));
        return out;
    }
}
