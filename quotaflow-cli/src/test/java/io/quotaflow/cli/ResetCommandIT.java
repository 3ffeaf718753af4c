package io.quotaflow.cli;

import io.quotaflow.Pipeline;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.publish.TicketPublisher;
import io.quotaflow.settings.BatchSettings;
import io.quotaflow.settings.ModelSettings;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.Secret;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.simulator.ProviderSimulator;
import io.quotaflow.simulator.SimulatorConfig;
import io.quotaflow.testkit.KafkaBrokerExtension;
import io.quotaflow.topology.QuotaflowTopology;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.StringReader;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code quotaflow reset} against a real broker, after a real pipeline made its internal topics: it refuses
 * while an instance runs, prints without {@code --yes}, deletes exactly the topics Streams made (not another
 * application's whose id extends this one), keeps the input offsets, deletes local state, and finds nothing
 * to do the second time; a pipeline started afterwards classifies again. Under the streams rebalance protocol too.
 */
@Order(10) // among the slowest IT classes: started first, the slowest first (pom.xml, Failsafe)
@ExtendWith(KafkaBrokerExtension.class)
class ResetCommandIT {

    private static CommandRun run(Map<String, String> env, String... args) {
        return CommandRun.execute(env, args);
    }

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldDeleteWhatTheRunMadeKeepInputOffsetsAndLetTheNextRunClassify(@TempDir Path stateDir) throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("reset") + ".";
        String app = KafkaBrokerExtension.uniqueName("reset-app");
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers(),
                "QUOTAFLOW_TOPICS_PREFIX", prefix, "QUOTAFLOW_APPLICATION_ID", app, "QUOTAFLOW_STATE_DIR", stateDir.toString()));
        assertThat(run(env, "topics", "apply").exitCode()).isZero();
        String lookalike = app + "-eu-dispatch-repartition";
        Admin admin = KafkaBrokerExtension.admin();
        admin.createTopics(List.of(new NewTopic(lookalike, 1, (short) 1))).all().get(30, TimeUnit.SECONDS);

        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000)
                .apiKeys(Set.of("sk-it-reset")).build())) {
            QuotaflowConfig config = config(sim, prefix, app, stateDir);
            try (Pipeline pipeline = Pipeline.start(config)) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
                publish(prefix, "R-1");
                awaitClassified(env, 1, "R-1");

                CommandRun refused = run(env, "reset", "--yes");
                assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(ExitCodes.FAILURE);
                assertThat(refused.err()).contains("consumer group " + app, "stop every instance");
            }
            assertThat(internalTopicsPresent(admin, app)).as("the run made every internal topic")
                    .containsExactlyElementsOf(QuotaflowTopology.internalTopics(app));
            Map<TopicPartition, OffsetAndMetadata> inputsBefore = inputOffsets(admin, app, prefix);
            assertThat(inputsBefore).as("the run committed its input offsets").isNotEmpty();
            assertThat(stateDir.resolve(app)).isDirectory();

            CommandRun unconfirmed = run(env, "reset");
            assertThat(unconfirmed.exitCode()).isEqualTo(ExitCodes.USAGE);
            assertThat(unconfirmed.out()).contains("delete topic " + app + "-dispatch-repartition",
                    "delete local state " + stateDir.resolve(app)).doesNotContain(lookalike);
            assertThat(unconfirmed.err()).contains("--yes");
            CommandRun dry = run(env, "reset", "--dry-run");
            assertThat(dry.exitCode()).isZero();
            assertThat(dry.out()).isEqualTo(unconfirmed.out());
            assertThat(internalTopicsPresent(admin, app)).as("neither changed anything").hasSize(QuotaflowTopology.internalTopics(app).size());

            CommandRun reset = run(env, "reset", "--yes");
            assertThat(reset.exitCode()).as(reset.err()).isZero();
            assertThat(internalTopicsPresent(admin, app)).isEmpty();
            assertThat(admin.listTopics().names().get(30, TimeUnit.SECONDS)).contains(lookalike, prefix + "tickets.standard");
            assertThat(inputOffsets(admin, app, prefix)).as("input offsets kept").isEqualTo(inputsBefore);
            assertThat(stateDir.resolve(app)).doesNotExist();
            assertThat(stateDir).as("only the application's own directory goes").isDirectory();

            CommandRun again = run(env, "reset", "--yes");
            assertThat(again.exitCode()).as(again.err()).isZero();
            assertThat(again.out()).isEqualTo("nothing to reset for application id " + app + "\n");

            try (Pipeline pipeline = Pipeline.start(config)) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
                publish(prefix, "R-2");
                awaitClassified(env, 2, "R-2");
                CommandRun all = run(env, "results", "--from-beginning", "--idle-timeout", "3");
                assertThat(all.out().lines().filter(l -> l.contains("\"R-1\"")).count()).as("kept offsets: R-1 not classified again")
                        .isEqualTo(1);
            }
        }
    }

    /**
     * Under {@code group.protocol=streams} (KIP-1071) the application's group is a streams group, which the consumer-group
     * view does not show as running: the reset still refuses while an instance runs, the changelogs stay and the instance
     * classifies what is published afterwards; a dry run works while it runs and deletes nothing; once it has stopped
     * (the streams group empty) the reset goes ahead.
     */
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldRefuseWhileAStreamsProtocolInstanceRunsAndResetOnceItStopped(@TempDir Path stateDir) throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("reset-streams") + ".";
        String app = KafkaBrokerExtension.uniqueName("reset-streams-app");
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers(),
                "QUOTAFLOW_TOPICS_PREFIX", prefix, "QUOTAFLOW_APPLICATION_ID", app, "QUOTAFLOW_STATE_DIR", stateDir.toString()));
        assertThat(run(env, "topics", "apply").exitCode()).isZero();
        Admin admin = KafkaBrokerExtension.admin();

        try (ProviderSimulator sim = ProviderSimulator.start(SimulatorConfig.builder().port(0).rpm(600).tpm(200_000)
                .apiKeys(Set.of("sk-it-reset")).build())) {
            QuotaflowConfig config = config(sim, prefix, app, stateDir, Map.of("num.standby.replicas", "0", "group.protocol", "streams"));
            try (Pipeline pipeline = Pipeline.start(config)) {
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(90))).isTrue();
                publish(prefix, "S-1");
                awaitClassified(env, 1, "S-1");
                assertThat(admin.describeStreamsGroups(List.of(app)).all().get(30, TimeUnit.SECONDS).get(app).members())
                        .as("the instance is a member of a streams group").isNotEmpty();
                TreeSet<String> made = internalTopicsPresent(admin, app);
                assertThat(made).as("the run made its changelogs").isNotEmpty();

                CommandRun dry = run(env, "reset", "--dry-run");
                assertThat(dry.exitCode()).as(dry.out() + dry.err()).isZero();
                assertThat(dry.out()).contains("delete topic " + app + "-dispatch-repartition",
                        "streams group " + app + " has 1 member(s)", "a reset with --yes refuses until every instance is stopped");

                CommandRun refused = run(env, "reset", "--yes");
                assertThat(refused.exitCode()).as(refused.out() + refused.err()).isEqualTo(ExitCodes.FAILURE);
                assertThat(refused.err()).contains("reset refused: streams group " + app + " has 1 member(s)", "stop every instance");
                assertThat(refused.out()).isEmpty();
                CommandRun unconfirmed = run(env, "reset");
                assertThat(unconfirmed.exitCode()).as(unconfirmed.out() + unconfirmed.err()).isEqualTo(ExitCodes.FAILURE);

                assertThat(internalTopicsPresent(admin, app)).as("neither the dry run nor the refused resets deleted anything")
                        .isEqualTo(made);
                assertThat(stateDir.resolve(app)).isDirectory();
                publish(prefix, "S-2");
                awaitClassified(env, 2, "S-2");
                assertThat(pipeline.awaitRunning(Duration.ofSeconds(1))).as("the instance keeps running").isTrue();
            }
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() ->
                    assertThat(admin.describeStreamsGroups(List.of(app)).all().get(30, TimeUnit.SECONDS).get(app).members())
                            .as("the stopped instance left the group").isEmpty());

            CommandRun reset = run(env, "reset", "--yes");
            assertThat(reset.exitCode()).as(reset.out() + reset.err()).isZero();
            assertThat(reset.out()).contains("deleted the committed offsets of group " + app);
            assertThat(internalTopicsPresent(admin, app)).isEmpty();
            assertThat(stateDir.resolve(app)).doesNotExist();
            assertThat(run(env, "reset", "--dry-run").out()).isEqualTo("nothing to reset for application id " + app + "\n");
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldMoveInputOffsetsToTheEndWhenAsked(@TempDir Path stateDir) throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("reset-latest") + ".";
        String app = KafkaBrokerExtension.uniqueName("reset-latest-app");
        Map<String, String> env = new HashMap<>(Map.of("QUOTAFLOW_BOOTSTRAP_SERVERS", KafkaBrokerExtension.bootstrapServers(),
                "QUOTAFLOW_TOPICS_PREFIX", prefix, "QUOTAFLOW_APPLICATION_ID", app, "QUOTAFLOW_STATE_DIR", stateDir.toString()));
        assertThat(run(env, "topics", "apply").exitCode()).isZero();
        publish(prefix, "L-1");
        publish(prefix, "L-2");
        Admin admin = KafkaBrokerExtension.admin();
        TopicPartition committed = endOffsets(admin, prefix + "tickets.standard").entrySet().stream()
                .filter(e -> e.getValue() > 0).findFirst().orElseThrow().getKey();
        admin.alterConsumerGroupOffsets(app, Map.of(committed, new OffsetAndMetadata(0))).all().get(30, TimeUnit.SECONDS);
        long standardEnd = endOffsets(admin, prefix + "tickets.standard").values().stream().mapToLong(Long::longValue).sum();
        assertThat(standardEnd).isEqualTo(2);

        CommandRun dry = run(env, "reset", "--input-offsets", "latest", "--dry-run");
        assertThat(dry.exitCode()).as(dry.err()).isZero();
        assertThat(dry.out()).contains("move offset of " + committed + " from 0 to ", "(latest)");
        CommandRun reset = run(env, "reset", "--input-offsets", "LATEST", "--yes");
        assertThat(reset.exitCode()).as(reset.err()).isZero();

        Map<TopicPartition, OffsetAndMetadata> after = inputOffsets(admin, app, prefix);
        Map<TopicPartition, Long> ends = new HashMap<>();
        for (String topic : new TopicNames(prefix).inputs()) {
            ends.putAll(endOffsets(admin, topic));
        }
        // a partition with nothing committed and nothing in it is left alone: the next start reads it from 0 anyway
        ends.forEach((tp, end) -> {
            if (end > 0 || after.containsKey(tp)) {
                assertThat(after.get(tp)).as(tp.toString()).isNotNull();
                assertThat(after.get(tp).offset()).as(tp.toString()).isEqualTo(end);
            }
        });
        assertThat(after.keySet()).as("the two partitions holding the tickets").hasSizeGreaterThanOrEqualTo(1)
                .allSatisfy(tp -> assertThat(ends).containsKey(tp));

        CommandRun bad = run(env, "reset", "--input-offsets", "beginning", "--yes");
        assertThat(bad.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bad.err()).contains("'beginning' is not one of keep, earliest, latest");
    }

    private static QuotaflowConfig config(ProviderSimulator sim, String prefix, String app, Path stateDir) {
        return config(sim, prefix, app, stateDir, Map.of("num.standby.replicas", "0"));
    }

    private static QuotaflowConfig config(ProviderSimulator sim, String prefix, String app, Path stateDir, Map<String, String> kafka) {
        DispatcherSettings settings = DispatcherSettings.builder(ModelSettings.of(URI.create(sim.baseUrl()), "gpt-4o-mini",
                Secret.of("sk-it-reset")), QuotaSettings.ofDefaults().withRpm(600).withTpm(200_000), BatchSettings.ofDefaults(),
                RetrySettings.ofDefaults()).build().withTopics(new TopicNames(prefix));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new QuotaflowConfig(KafkaBrokerExtension.bootstrapServers(), app, stateDir, port, kafka, settings).withHttp("127.0.0.1", port);
    }

    private static void publish(String prefix, String id) throws Exception {
        try (TicketPublisher publisher = new TicketPublisher(KafkaBrokerExtension.bootstrapServers(), Map.of(), new TopicNames(prefix))) {
            assertThat(publisher.publish(new StringReader("{\"id\":\"" + id + "\",\"subject\":\"Refund\",\"body\":\"Please refund "
                    + "order 77.\",\"tenant\":\"acme\",\"priority\":\"standard\"}\n"), Optional.empty(), p -> { }).succeeded()).isTrue();
        }
    }

    /** Waits until the results topic holds {@code count} results, the last for {@code id}. */
    private static void awaitClassified(Map<String, String> env, int count, String id) {
        await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            CommandRun r = run(env, "results", "--from-beginning", "--max", Integer.toString(count), "--idle-timeout", "5");
            assertThat(r.out().lines().count()).as(r.err()).isEqualTo(count);
            assertThat(r.out()).contains("\"" + id + "\"");
        });
    }

    private static TreeSet<String> internalTopicsPresent(Admin admin, String app) throws Exception {
        Set<String> names = admin.listTopics().names().get(30, TimeUnit.SECONDS);
        return names.stream().filter(t -> t.startsWith(app + "-") && !t.startsWith(app + "-eu-"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Map<TopicPartition, OffsetAndMetadata> inputOffsets(Admin admin, String group, String prefix) throws Exception {
        Set<String> inputs = Set.copyOf(new TopicNames(prefix).inputs());
        return admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).entrySet().stream()
                .filter(e -> inputs.contains(e.getKey().topic()) && e.getValue() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static Map<TopicPartition, Long> endOffsets(Admin admin, String topic) throws Exception {
        int partitions = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic).partitions().size();
        Map<TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> specs = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            specs.put(new TopicPartition(topic, p), org.apache.kafka.clients.admin.OffsetSpec.latest());
        }
        Map<TopicPartition, Long> ends = new HashMap<>();
        admin.listOffsets(specs).all().get(30, TimeUnit.SECONDS).forEach((tp, info) -> ends.put(tp, info.offset()));
        return ends;
    }
}
