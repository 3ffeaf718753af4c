package io.quotaflow.admin;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings a cluster's topics in line with their {@link TopicSpec declarations}, idempotently.
 *
 * <ul>
 *   <li>Missing topics are created with the declared partitions and configs; the replication
 *       factor is capped at the number of live brokers (with a warning).</li>
 *   <li>Partition counts are raised to the declared count, never lowered (a higher count only
 *       draws a warning).</li>
 *   <li>Declared configs that differ are SET with {@code incrementalAlterConfigs}; configs that
 *       are not declared are left untouched. {@code min.insync.replicas} is capped at the topic's
 *       effective replication factor, so a one-broker development cluster stays writable with
 *       {@code acks=all}.</li>
 *   <li>Topics are never deleted and replication factors of existing topics never changed.</li>
 * </ul>
 *
 * <p>Running it twice changes nothing the second time. Two processes may run it at the same
 * time: a topic created by the other one in between is simply reconciled like any existing one.
 */
public final class TopicsApplier {

    private static final Logger LOG = LoggerFactory.getLogger(TopicsApplier.class);

    /** Default bound on each Admin round trip. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final List<TopicSpec> specs;
    private final Duration timeout;
    private final AdminCalls calls;

    public TopicsApplier(List<TopicSpec> specs) {
        this(specs, DEFAULT_TIMEOUT);
    }

    public TopicsApplier(List<TopicSpec> specs, Duration timeout) {
        this.specs = List.copyOf(Objects.requireNonNull(specs, "specs"));
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.calls = new AdminCalls(timeout);
        Set<String> names = new HashSet<>();
        for (TopicSpec spec : this.specs) {
            if (!names.add(spec.name())) {
                throw new IllegalArgumentException("topic " + spec.name() + " is declared twice");
            }
        }
    }

    /** An applier for the declarations bundled in the jar ({@code topics/*.json}). */
    public static TopicsApplier bundled() {
        return new TopicsApplier(TopicSpec.loadBundled());
    }

    /** An applier for the {@code *.json} declarations of a directory. */
    public static TopicsApplier fromDirectory(Path dir) {
        return new TopicsApplier(TopicSpec.loadDirectory(dir));
    }

    /** {@link #fromDirectory(Path)} when a directory is given, else {@link #bundled()}. */
    public static TopicsApplier load(Path dirOrNull) {
        return new TopicsApplier(TopicSpec.load(dirOrNull));
    }

    /**
     * These declarations and each per-tenant input topic of {@code access} ({@code tenants.from=topic|principal}:
     * {@code <prefix>tickets.<tenant>.<priority>}), each declared as its priority's input topic is; call it after
     * {@link #withPrefix}.
     */
    public TopicsApplier withTenantTopics(io.quotaflow.settings.TenantAccess access, io.quotaflow.settings.TopicNames names) {
        Map<String, TopicSpec> byName = new java.util.HashMap<>();
        specs.forEach(s -> byName.put(s.name(), s));
        List<TopicSpec> out = new ArrayList<>(specs);
        access.topics(names).forEach((topic, tenant) -> {
            TopicSpec base = byName.get(names.input(tenant.priority()));
            if (base != null && !byName.containsKey(topic)) {
                out.add(new TopicSpec(topic, base.partitions(), base.replicationFactor(), base.configs()));
            }
        });
        return new TopicsApplier(out, timeout);
    }

    /** An applier for the same declarations with every topic name prefixed ({@code topics.prefix}). */
    public TopicsApplier withPrefix(String prefix) {
        return new TopicsApplier(specs.stream().map(s -> s.withPrefix(prefix)).toList(), timeout);
    }

    /** The declarations this applier enforces, in order. */
    public List<TopicSpec> specs() {
        return specs;
    }

    /**
     * Creates, grows and re-configures topics to match the declarations.
     *
     * @return one human-readable line per change made, in declaration order, e.g.
     *         {@code created tickets.bulk (6 partitions, rf 1)},
     *         {@code tickets.bulk: partitions 3 -> 6},
     *         {@code tickets.dlq: retention.ms 604800000 -> 2592000000}; empty when the cluster
     *         already matched
     * @throws KafkaException     when the cluster refuses a change or does not answer in time
     * @throws InterruptException when the calling thread is interrupted
     */
    public List<String> apply(Admin admin) {
        Map<String, List<String>> changes = new LinkedHashMap<>();
        specs.forEach(spec -> changes.put(spec.name(), new ArrayList<>()));
        if (specs.isEmpty()) {
            return List.of();
        }

        int liveBrokers = calls.await(admin.describeCluster().nodes(), "describe the cluster").size();
        if (liveBrokers < 1) {
            throw new KafkaException("the cluster reports no live broker");
        }
        Set<String> existing =
                calls.await(admin.listTopics(new ListTopicsOptions().listInternal(false)).names(), "list topics");

        List<TopicSpec> toCreate = specs.stream().filter(s -> !existing.contains(s.name())).toList();
        List<String> toReconcile = new ArrayList<>(
                specs.stream().map(TopicSpec::name).filter(existing::contains).toList());
        toReconcile.addAll(create(admin, toCreate, liveBrokers, changes));
        reconcile(admin, toReconcile, liveBrokers, changes);

        return changes.values().stream().flatMap(List::stream).toList();
    }

    /**
     * The declared topics as the cluster has them, changing nothing ({@code topics list},
     * {@code topics describe}).
     *
     * @throws KafkaException when the cluster does not answer in time or refuses to describe a topic
     */
    public List<TopicState> describe(Admin admin) {
        if (specs.isEmpty()) {
            return List.of();
        }
        Set<String> existing = calls.await(admin.listTopics(new ListTopicsOptions().listInternal(false)).names(), "list topics");
        List<String> present = specs.stream().map(TopicSpec::name).filter(existing::contains).toList();
        Map<String, TopicDescription> descriptions = present.isEmpty() ? Map.of() : calls.retryUnknownTopic(() ->
                calls.await(admin.describeTopics(present).allTopicNames(), "describe topics " + present));
        List<ConfigResource> resources = present.stream().map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> configs = resources.isEmpty() ? Map.of() : calls.retryUnknownTopic(() ->
                calls.await(admin.describeConfigs(resources).all(), "describe configs of " + present));
        List<TopicState> states = new ArrayList<>();
        for (TopicSpec spec : specs) {
            TopicDescription description = descriptions.get(spec.name());
            if (description == null) {
                states.add(TopicState.missing(spec));
                continue;
            }
            int rf = description.partitions().isEmpty() ? 1 : description.partitions().get(0).replicas().size();
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, spec.name()));
            Map<String, String> values = new LinkedHashMap<>();
            for (String key : spec.configs().keySet()) {
                ConfigEntry entry = config == null ? null : config.get(key);
                if (entry != null && entry.value() != null) {
                    values.put(key, entry.value());
                }
            }
            states.add(new TopicState(spec, true, description.partitions().size(), rf, values));
        }
        return List.copyOf(states);
    }

    /**
     * How the cluster differs from the declarations, changing nothing: what {@code topics apply} would
     * change ({@linkplain TopicDifference.Kind#blocking() blocking}) and what it leaves alone (a higher
     * partition count, a lower replication factor). A declared replication factor above the live broker
     * count is compared as {@code apply} would create it (capped).
     *
     * @return the differences in declaration order; empty when the cluster matches
     * @throws KafkaException when the cluster does not answer in time or refuses to describe a topic
     */
    public List<TopicDifference> diff(Admin admin) {
        if (specs.isEmpty()) {
            return List.of();
        }
        int liveBrokers = Math.max(1, calls.await(admin.describeCluster().nodes(), "describe the cluster").size());
        return TopicComparison.differences(describe(admin), liveBrokers);
    }

    /** Creates the topics; returns those that another process created meanwhile. */
    private List<String> create(Admin admin, List<TopicSpec> toCreate, int liveBrokers,
                                Map<String, List<String>> changes) {
        if (toCreate.isEmpty()) {
            return List.of();
        }
        List<NewTopic> newTopics = new ArrayList<>();
        List<String> capped = new ArrayList<>();
        for (TopicSpec spec : toCreate) {
            int rf = Math.min(spec.replicationFactor(), liveBrokers);
            if (rf < spec.replicationFactor()) {
                capped.add(spec.name() + " (" + spec.replicationFactor() + " -> " + rf + ")");
            }
            newTopics.add(new NewTopic(spec.name(), spec.partitions(), (short) rf)
                    .configs(TopicComparison.effectiveConfigs(spec, rf)));
        }
        if (!capped.isEmpty()) {
            LOG.warn("only {} live broker{}: replication factor capped for {}; min.insync.replicas capped to match",
                    liveBrokers, liveBrokers == 1 ? "" : "s", String.join(", ", capped));
        }
        Map<String, KafkaFuture<Void>> results = admin.createTopics(newTopics).values();
        List<String> raced = new ArrayList<>();
        List<String> created = new ArrayList<>();
        for (NewTopic topic : newTopics) {
            try {
                calls.await(results.get(topic.name()), "create topic " + topic.name());
                created.add(topic.name());
                changes.get(topic.name()).add("created " + topic.name() + " (" + topic.numPartitions()
                        + " partitions, rf " + topic.replicationFactor() + ")");
            } catch (KafkaException e) {
                if (e.getCause() instanceof TopicExistsException) {
                    LOG.debug("{} was created concurrently; reconciling it instead", topic.name());
                    raced.add(topic.name());
                } else {
                    throw e;
                }
            }
        }
        Map<String, Integer> wanted = new HashMap<>();
        newTopics.stream().filter(t -> created.contains(t.name()))
                .forEach(t -> wanted.put(t.name(), t.numPartitions()));
        calls.awaitPartitions(admin, wanted);
        return raced;
    }

    private void reconcile(Admin admin, List<String> names, int liveBrokers, Map<String, List<String>> changes) {
        if (names.isEmpty()) {
            return;
        }
        Map<String, TopicSpec> byName = new HashMap<>();
        specs.forEach(s -> byName.put(s.name(), s));

        Map<String, TopicDescription> descriptions = calls.retryUnknownTopic(() ->
                calls.await(admin.describeTopics(names).allTopicNames(), "describe topics " + names));

        // partitions: only ever raised
        Map<String, NewPartitions> increases = new LinkedHashMap<>();
        Map<String, Integer> rfs = new HashMap<>();
        for (String name : names) {
            TopicSpec spec = byName.get(name);
            TopicDescription description = descriptions.get(name);
            int actual = description.partitions().size();
            int rf = description.partitions().isEmpty() ? 1 : description.partitions().get(0).replicas().size();
            rfs.put(name, rf);
            if (spec.partitions() > actual) {
                increases.put(name, NewPartitions.increaseTo(spec.partitions()));
            } else if (spec.partitions() < actual) {
                LOG.warn("{} has {} partitions, more than the {} declared; partition counts are never lowered",
                        name, actual, spec.partitions());
            }
            int wantedRf = Math.min(spec.replicationFactor(), liveBrokers);
            if (rf < wantedRf) {
                LOG.warn("{} has replication factor {}, {} declared; replication factors of existing topics"
                        + " are not changed (reassign the partitions to raise it)", name, rf, wantedRf);
            }
        }
        if (!increases.isEmpty()) {
            Map<String, KafkaFuture<Void>> results = admin.createPartitions(increases).values();
            Map<String, Integer> wanted = new HashMap<>();
            for (Map.Entry<String, NewPartitions> entry : increases.entrySet()) {
                String name = entry.getKey();
                int from = descriptions.get(name).partitions().size();
                int to = entry.getValue().totalCount();
                try {
                    calls.await(results.get(name), "add partitions to " + name);
                    changes.get(name).add(name + ": partitions " + from + " -> " + to);
                    wanted.put(name, to);
                } catch (KafkaException e) {
                    if (!(e.getCause() instanceof InvalidPartitionsException)) {
                        throw e;
                    }
                    // maybe another process raised it meanwhile: fine if the count is now high enough
                    int now = calls.retryUnknownTopic(() -> calls.await(admin.describeTopics(List.of(name)).allTopicNames(),
                            "describe topic " + name)).get(name).partitions().size();
                    if (now < to) {
                        throw e;
                    }
                    LOG.debug("{}: partitions were raised concurrently to {}", name, now);
                }
            }
            calls.awaitPartitions(admin, wanted);
        }

        // configs: SET the declared keys that differ, leave everything else alone
        List<ConfigResource> resources = names.stream()
                .map(n -> new ConfigResource(ConfigResource.Type.TOPIC, n)).toList();
        Map<ConfigResource, Config> current = calls.retryUnknownTopic(() ->
                calls.await(admin.describeConfigs(resources).all(), "describe configs of " + names));
        Map<ConfigResource, Collection<AlterConfigOp>> alterations = new LinkedHashMap<>();
        Map<ConfigResource, List<String>> alterationLines = new LinkedHashMap<>();
        for (ConfigResource resource : resources) {
            String name = resource.name();
            Config config = current.get(resource);
            List<AlterConfigOp> ops = new ArrayList<>();
            List<String> lines = new ArrayList<>();
            TopicComparison.effectiveConfigs(byName.get(name), rfs.get(name)).forEach((key, wanted) -> {
                ConfigEntry entry = config == null ? null : config.get(key);
                String actual = entry == null ? null : entry.value();
                if (!TopicComparison.sameValue(actual, wanted)) {
                    ops.add(new AlterConfigOp(new ConfigEntry(key, wanted), AlterConfigOp.OpType.SET));
                    lines.add(name + ": " + key + " " + (actual == null ? "(unset)" : actual) + " -> " + wanted);
                }
            });
            if (!ops.isEmpty()) {
                alterations.put(resource, ops);
                alterationLines.put(resource, lines);
            }
        }
        if (!alterations.isEmpty()) {
            Map<ConfigResource, KafkaFuture<Void>> results = admin.incrementalAlterConfigs(alterations).values();
            for (ConfigResource resource : alterations.keySet()) {
                calls.await(results.get(resource), "alter configs of " + resource.name());
                changes.get(resource.name()).addAll(alterationLines.get(resource));
            }
        }
    }
}
