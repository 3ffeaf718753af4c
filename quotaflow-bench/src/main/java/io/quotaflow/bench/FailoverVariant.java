package io.quotaflow.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One set of group-membership settings the failover scenario measures ({@link FailoverRunner}):
 * what the three instances get on top of quotaflow's defaults, what the broker gets on top of the
 * embedded broker's, and whether the killed instance comes back.
 *
 * @param name        the name used on the command line and in the tables ({@code +restart} included)
 * @param description one line for humans
 * @param kafka       {@code kafka.*} settings of every instance (prefix removed), on top of the defaults
 * @param instanceId  the instances' {@code instance.id}: {@code auto} (static membership) or {@code none}
 * @param broker      broker properties on top of the embedded broker's
 * @param restart     whether the killed instance is restarted at once with the same state directory
 *                    (and so the same instance id); otherwise it stays dead
 * @param limitsSet   whether each route sets its {@code rpm} and {@code tpm} (ceilings: the local burst, then the limit ×
 *                    the safety factor); otherwise they are learned from the provider's headers, its bucket used as it says
 */
public record FailoverVariant(String name, String description, Map<String, String> kafka, String instanceId,
                              Map<String, String> broker, boolean restart, boolean limitsSet) {

    /** Suffix of a variant whose killed instance is restarted. */
    public static final String RESTART_SUFFIX = "+restart";
    /** The variants {@code bench --scenario failover} runs unless told otherwise. */
    public static final String DEFAULT_SELECTION = "before,defaults,before+restart,defaults+restart";

    /** A variant whose routes set their limits. */
    public FailoverVariant(String name, String description, Map<String, String> kafka, String instanceId, Map<String, String> broker,
                           boolean restart) {
        this(name, description, kafka, instanceId, broker, restart, true);
    }

    public FailoverVariant {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        kafka = Map.copyOf(kafka);
        broker = Map.copyOf(broker);
        Objects.requireNonNull(instanceId, "instanceId");
    }

    /** Whether the instances use the streams rebalance protocol (KIP-1071) rather than the classic one. */
    public boolean streamsProtocol() {
        return "streams".equalsIgnoreCase(kafka.getOrDefault("group.protocol", "classic"));
    }

    /** The same settings with the killed instance restarted at once. */
    public FailoverVariant withRestart() {
        return restart ? this : new FailoverVariant(name + RESTART_SUFFIX, description + "; the killed instance restarted at once",
                kafka, instanceId, broker, true, limitsSet);
    }

    /**
     * The settings measured, without restart, in catalogue order: {@code before} (quotaflow's
     * settings before the failover change: static membership with Kafka's 45 s session and Kafka
     * Streams' 10 s transactions), {@code defaults} (whatever quotaflow's defaults are now: nothing
     * set), shorter sessions with static membership, shorter transactions (also with the sticky
     * assignor, and on a broker that aborts timed-out transactions sooner), no standby, dynamic
     * membership, and the streams rebalance protocol with the broker's defaults and with a broker
     * whose streams-group bounds allow 6 s.
     */
    public static List<FailoverVariant> catalogue() {
        Map<String, String> none = Map.of();
        String sticky = "org.apache.kafka.streams.processor.assignment.assignors.StickyTaskAssignor";
        return List.of(
                new FailoverVariant("before", "static membership, session.timeout.ms 45 s, heartbeat 3 s, transaction.timeout.ms "
                        + "10 s, 1 standby (Kafka's defaults: the settings before this scenario)", classic(45_000, 3_000, 10_000, 1),
                        "auto", none, false),
                new FailoverVariant("defaults", "quotaflow's defaults as they are now (nothing set)", none, "auto", none, false),
                new FailoverVariant("defaults-learned", "quotaflow's defaults with the routes' rpm and tpm unset: learned from the "
                        + "provider's headers, its bucket used as far as it says", none, "auto", none, false, false),
                new FailoverVariant("defaults-no-credit", "quotaflow's defaults with instance.takeover-credit=off: the new owner "
                        + "of a moved scope earns its burst from empty", Map.of("quotaflow.takeover.credit", "off"), "auto", none, false),
                new FailoverVariant("defaults-lag-100", "quotaflow's defaults with acceptable.recovery.lag 100 (Kafka Streams' "
                        + "default 10000 counts an instance without a task's state as caught up while its changelogs are short, so "
                        + "a moved task may land where it restores from scratch instead of on its standby)",
                        Map.of("acceptable.recovery.lag", "100"), "auto", none, false),
                new FailoverVariant("static-10s", "static membership, session.timeout.ms 10 s, heartbeat 1 s, transaction.timeout.ms "
                        + "10 s, 1 standby", classic(10_000, 1_000, 10_000, 1), "auto", none, false),
                new FailoverVariant("static-6s", "static membership, session.timeout.ms 6 s, heartbeat 1 s, transaction.timeout.ms "
                        + "10 s, 1 standby", classic(6_000, 1_000, 10_000, 1), "auto", none, false),
                new FailoverVariant("static-6s-txn-5s", "static membership, session.timeout.ms 6 s, heartbeat 1 s, 1 standby, "
                        + "transaction.timeout.ms 5 s (the dead instance's open transaction, which holds its tasks' changelogs, "
                        + "is aborted sooner)", classic(6_000, 1_000, 5_000, 1), "auto", none, false),
                new FailoverVariant("static-6s-txn-5s-sticky", "as static-6s-txn-5s, with Kafka Streams' StickyTaskAssignor "
                        + "(the survivors keep their own tasks)", with(classic(6_000, 1_000, 5_000, 1), "task.assignor.class", sticky),
                        "auto", none, false),
                new FailoverVariant("static-6s-txn-5s-broker-1s", "as static-6s-txn-5s, on a broker that looks for timed-out "
                        + "transactions every second (transaction.abort.timed.out.transaction.cleanup.interval.ms 1000, default "
                        + "10000)", classic(6_000, 1_000, 5_000, 1), "auto",
                        Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"), false),
                new FailoverVariant("static-6s-hb-500ms-txn-5s", "as static-6s-txn-5s, with heartbeats every 500 ms (the "
                        + "session expires sooner after the last one, and the survivors hear of the rebalance sooner)",
                        classic(6_000, 500, 5_000, 1), "auto", none, false),
                new FailoverVariant("static-6s-no-standby", "static membership, session.timeout.ms 6 s, heartbeat 1 s, "
                        + "transaction.timeout.ms 10 s, no standby", classic(6_000, 1_000, 10_000, 0), "auto", none, false),
                new FailoverVariant("dynamic-6s", "dynamic membership (instance.id=none), session.timeout.ms 6 s, heartbeat 1 s, "
                        + "transaction.timeout.ms 10 s, 1 standby", classic(6_000, 1_000, 10_000, 1), "none", none, false),
                new FailoverVariant("streams", "group.protocol=streams (KIP-1071), static membership, transaction.timeout.ms 10 s, "
                        + "the broker's streams-group defaults (45 s session, 5 s heartbeat, no standby)",
                        ordered("group.protocol", "streams", "transaction.timeout.ms", "10000"), "auto", none, false),
                new FailoverVariant("streams-6s", "group.protocol=streams, static membership, transaction.timeout.ms 10 s; broker: "
                        + "group.streams.session.timeout.ms 6 s (its minimum lowered to 6 s), heartbeat 1 s, 1 standby",
                        ordered("group.protocol", "streams", "transaction.timeout.ms", "10000"), "auto",
                        ordered("group.streams.min.session.timeout.ms", "6000", "group.streams.session.timeout.ms", "6000",
                                "group.streams.min.heartbeat.interval.ms", "1000", "group.streams.heartbeat.interval.ms", "1000",
                                "group.streams.num.standby.replicas", "1"), false));
    }

    /** The classic protocol's settings: session, heartbeat and transaction timeout in ms, standbys. */
    private static Map<String, String> classic(int sessionMs, int heartbeatMs, int transactionMs, int standbys) {
        return ordered("session.timeout.ms", Integer.toString(sessionMs), "heartbeat.interval.ms", Integer.toString(heartbeatMs),
                "transaction.timeout.ms", Integer.toString(transactionMs), "num.standby.replicas", Integer.toString(standbys));
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> m = new LinkedHashMap<>(base);
        m.put(key, value);
        return m;
    }

    /**
     * The variants named in {@code selection}: comma-separated catalogue names, each optionally with
     * {@code +restart}; {@code all} is every catalogue entry, then every one with a restart. In the
     * order given, each once.
     *
     * @throws IllegalArgumentException for an unknown name or an empty selection
     */
    public static List<FailoverVariant> select(String selection) {
        String s = selection == null || selection.isBlank() ? DEFAULT_SELECTION : selection.strip();
        List<FailoverVariant> catalogue = catalogue();
        List<FailoverVariant> out = new ArrayList<>();
        for (String part : s.split(",")) {
            String p = part.strip().toLowerCase(Locale.ROOT);
            if (p.isEmpty()) {
                continue;
            }
            if (p.equals("all")) {
                catalogue.forEach(v -> addOnce(out, v));
                catalogue.forEach(v -> addOnce(out, v.withRestart()));
                continue;
            }
            boolean restart = p.endsWith(RESTART_SUFFIX);
            String base = restart ? p.substring(0, p.length() - RESTART_SUFFIX.length()) : p;
            FailoverVariant v = catalogue.stream().filter(c -> c.name().equals(base)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("unknown failover variant \"" + part.strip() + "\"; choose from "
                            + String.join(", ", catalogue.stream().map(FailoverVariant::name).toList())
                            + " (each optionally with " + RESTART_SUFFIX + ") or all"));
            addOnce(out, restart ? v.withRestart() : v);
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException("no failover variant selected");
        }
        return out;
    }

    private static void addOnce(List<FailoverVariant> out, FailoverVariant v) {
        if (out.stream().noneMatch(o -> o.name().equals(v.name()))) {
            out.add(v);
        }
    }

    private static Map<String, String> ordered(String... keyValues) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < keyValues.length; i += 2) {
            m.put(keyValues[i], keyValues[i + 1]);
        }
        return m;
    }
}
