package io.quotaflow.admin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.quotaflow.testkit.KafkaBrokerExtension;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(KafkaBrokerExtension.class)
class TopicsApplierIT {

    private static Admin admin;

    @BeforeAll
    static void connect() {
        admin = KafkaBrokerExtension.admin();
    }

    @AfterAll
    static void disconnect() {
        admin.close();
    }

    /** The bundled declarations under names of their own, so tests never share topics. */
    private static List<TopicSpec> bundledWithPrefix(String prefix) {
        return TopicSpec.loadBundled().stream()
                .map(s -> new TopicSpec(prefix + s.name(), s.partitions(), s.replicationFactor(), s.configs()))
                .toList();
    }

    private static TopicSpec spec(List<TopicSpec> specs, String suffix) {
        return specs.stream().filter(s -> s.name().endsWith(suffix)).findFirst().orElseThrow();
    }

    @Test
    void shouldCreateEveryDeclaredTopicWithTheReplicationFactorCappedAtTheLiveBrokers() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("create") + ".";
        List<TopicSpec> specs = bundledWithPrefix(prefix);

        List<String> changes = new TopicsApplier(specs).apply(admin);

        assertThat(changes).containsExactly(specs.stream()
                .map(s -> "created " + s.name() + " (" + s.partitions() + " partitions, rf 1)")
                .toArray(String[]::new));
        Map<String, TopicDescription> topics = describe(specs);
        Map<ConfigResource, Config> configs = configs(specs);
        for (TopicSpec s : specs) {
            assertThat(topics.get(s.name()).partitions()).hasSize(s.partitions());
            assertThat(topics.get(s.name()).partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(1));
            Config config = configs.get(new ConfigResource(ConfigResource.Type.TOPIC, s.name()));
            assertThat(config.get("retention.ms").value()).isEqualTo(s.configs().get("retention.ms"));
            assertThat(config.get("cleanup.policy").value()).isEqualTo("delete");
            assertThat(config.get("min.insync.replicas").value()).as("capped at rf 1").isEqualTo("1");
        }
    }

    @Test
    void shouldChangeNothingWhenAppliedASecondTime() {
        String prefix = KafkaBrokerExtension.uniqueName("twice") + ".";
        TopicsApplier applier = new TopicsApplier(bundledWithPrefix(prefix));

        assertThat(applier.apply(admin)).hasSize(TopicSpec.BUNDLED_TOPICS.size());
        assertThat(applier.apply(admin)).isEmpty();
    }

    @Test
    void shouldRaisePartitionsAndAlignDeclaredConfigsOfAnExistingTopic() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("align") + ".";
        TopicSpec dlq = spec(bundledWithPrefix(prefix), "tickets.dlq");
        String name = dlq.name();
        admin.createTopics(List.of(new NewTopic(name, 1, (short) 1).configs(Map.of(
                "retention.ms", "604800000",
                "segment.bytes", "10485760")))).all().get(30, TimeUnit.SECONDS);

        List<String> changes = new TopicsApplier(List.of(dlq)).apply(admin);

        assertThat(changes).containsExactly(
                name + ": partitions 1 -> " + dlq.partitions(),
                name + ": retention.ms 604800000 -> 2592000000");
        assertThat(describe(List.of(dlq)).get(name).partitions()).hasSize(dlq.partitions());
        // the broker serves a topic's configs from its metadata, which follows the controller's a moment later
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            Config config = configs(List.of(dlq)).get(new ConfigResource(ConfigResource.Type.TOPIC, name));
            assertThat(config.get("retention.ms").value()).isEqualTo("2592000000");
            assertThat(config.get("segment.bytes").value()).as("undeclared config untouched").isEqualTo("10485760");
        });
        assertThat(new TopicsApplier(List.of(dlq)).apply(admin)).isEmpty();
    }

    @Test
    void shouldNeverLowerAPartitionCount() throws Exception {
        String name = KafkaBrokerExtension.uniqueName("wide");
        admin.createTopics(List.of(new NewTopic(name, 4, (short) 1))).all().get(30, TimeUnit.SECONDS);
        TopicSpec spec = new TopicSpec(name, 2, 1, Map.of());

        assertThat(new TopicsApplier(List.of(spec)).apply(admin)).isEmpty();
        assertThat(describe(List.of(spec)).get(name).partitions()).hasSize(4);
    }

    @Test
    void shouldTolerateTwoConcurrentApplies() throws Exception {
        String prefix = KafkaBrokerExtension.uniqueName("race") + ".";
        List<TopicSpec> specs = bundledWithPrefix(prefix);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        CountDownLatch go = new CountDownLatch(1);
        try (Admin other = KafkaBrokerExtension.admin()) {
            Callable<List<String>> first = () -> {
                go.await();
                return new TopicsApplier(specs).apply(admin);
            };
            Callable<List<String>> second = () -> {
                go.await();
                return new TopicsApplier(specs).apply(other);
            };
            Future<List<String>> a = pool.submit(first);
            Future<List<String>> b = pool.submit(second);
            go.countDown();
            List<String> all = new ArrayList<>(a.get(60, TimeUnit.SECONDS));
            all.addAll(b.get(60, TimeUnit.SECONDS));

            assertThat(all).as("each topic created exactly once, nothing else changed")
                    .containsExactlyInAnyOrder(specs.stream()
                            .map(s -> "created " + s.name() + " (" + s.partitions() + " partitions, rf 1)")
                            .toArray(String[]::new));
        } finally {
            pool.shutdownNow();
        }
        assertThat(new TopicsApplier(specs).apply(admin)).isEmpty();
    }

    @Test
    void shouldBringTheBundledTopicsUpToDate() throws Exception {
        TopicsApplier applier = TopicsApplier.bundled();
        applier.apply(admin); // may or may not create them, depending on which tests ran before

        assertThat(applier.apply(admin)).isEmpty();
        Map<String, TopicDescription> topics = describe(applier.specs());
        assertThat(topics.keySet()).containsExactlyInAnyOrderElementsOf(TopicSpec.BUNDLED_TOPICS);
        applier.specs().forEach(s -> assertThat(topics.get(s.name()).partitions()).hasSize(s.partitions()));
    }

    private static Map<String, TopicDescription> describe(List<TopicSpec> specs) throws Exception {
        Set<String> names = Set.copyOf(specs.stream().map(TopicSpec::name).toList());
        return admin.describeTopics(names).allTopicNames().get(30, TimeUnit.SECONDS);
    }

    private static Map<ConfigResource, Config> configs(List<TopicSpec> specs) throws Exception {
        return admin.describeConfigs(specs.stream()
                .map(s -> new ConfigResource(ConfigResource.Type.TOPIC, s.name())).toList())
                .all().get(30, TimeUnit.SECONDS);
    }
}
