package io.quotaflow.it;

import io.quotaflow.Pipeline;
import io.quotaflow.admin.KafkaClients;
import io.quotaflow.testkit.OutcomeCounter;
import io.quotaflow.admin.TopicSpec;
import io.quotaflow.admin.TopicsApplier;
import io.quotaflow.config.QuotaflowConfig;
import io.quotaflow.llm.ModelItem;
import io.quotaflow.llm.ModelOutcome;
import io.quotaflow.llm.ModelRequest;
import io.quotaflow.records.DeadLetterHeaders;
import io.quotaflow.records.Json;
import io.quotaflow.settings.QuotaSettings;
import io.quotaflow.settings.RetrySettings;
import io.quotaflow.settings.TopicNames;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 18: an operator raises input partitions while the pipeline runs (an edited {@code topics/}
 * applied with {@link TopicsApplier}, as {@code topics apply} or the next {@code run} does). The
 * dispatch repartition topic keeps the partition count quotaflow gives it ({@code dispatch.partitions}),
 * so the stream threads take the new input partitions at the next rebalance and never fail: every
 * ticket, on every partition of every input topic (the retry topic included), is classified exactly once.
 */
class InputPartitionsIT {

    @RegisterExtension
    static final ItSupport it = ItSupport.of("sk-it-partitions", 6_000, 2_000_000, 5).withBundledPartitions();

    /** What the operator raises, and to what. */
    private static final Map<String, Integer> RAISED = Map.of("tickets.standard", 8, "tickets.retry", 8);

    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void shouldClassifyEveryTicketOnEveryPartitionAfterInputPartitionsAreRaised() throws Exception {
        TopicNames topics = it.topics();
        // every ticket whose id contains "flaky" fails its first call: its retry goes through tickets.retry
        Set<String> failedOnce = ConcurrentHashMap.newKeySet();
        FakeModelClient client = new FakeModelClient(request -> flakyOnce(request, failedOnce));
        QuotaflowConfig base = it.config("partitions", QuotaSettings.ofDefaults().withRpm(6_000).withTpm(2_000_000),
                RetrySettings.ofDefaults().withBase(Duration.ofMillis(50)).withCap(Duration.ofMillis(200))
                        .withCircuitOpenWait(Duration.ofSeconds(1)));
        // the consumers see new partitions within a second (the default is 5 minutes: the finding saw 3.5)
        QuotaflowConfig config = new QuotaflowConfig(base.bootstrapServers(), base.applicationId(), base.stateDir(), -1,
                Map.of("metadata.max.age.ms", "1000"), base.dispatcher());
        String dispatchTopic = config.applicationId() + "-dispatch-repartition";

        Set<String> expected = new LinkedHashSet<>();
        try (Pipeline pipeline = Pipeline.start(config, client);
             OutcomeCounter counter = it.counter();
             Admin admin = KafkaClients.admin(it.bootstrapServers(), Map.of())) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).isTrue();
            expected.addAll(publishToEveryPartition(topics, admin, "before", 2));
            awaitClassified(counter, expected, pipeline);

            // the operator's release: tickets.standard and tickets.retry at 8 partitions instead of 6
            Path edited = editedTopics();
            List<String> changes = TopicsApplier.fromDirectory(edited).withPrefix(topics.prefix()).apply(admin);
            assertThat(changes).containsExactlyInAnyOrder(topics.name("tickets.standard") + ": partitions 6 -> 8",
                    topics.name("tickets.retry") + ": partitions 6 -> 8");
            long raisedAt = System.nanoTime();

            // the stream thread takes the new partitions at the next rebalance, without failing
            await("the pipeline owns " + topics.name("tickets.standard") + "-7 and " + topics.retry() + "-7")
                    .atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                    .failFast("a stream thread failed", () -> pipeline.metrics().threadFailureCount() > 0)
                    .until(() -> owned(pipeline).containsAll(List.of(new TopicPartition(topics.name("tickets.standard"), 7),
                            new TopicPartition(topics.retry(), 7))));
            long takenMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - raisedAt);

            long publishedAt = System.nanoTime();
            Set<String> after = publishToEveryPartition(topics, admin, "after", 3);
            assertThat(after).as("interactive and bulk at 6 partitions, standard and retry at 8").hasSize((6 + 8 + 6 + 8) * 3);
            expected.addAll(after);
            awaitClassified(counter, expected, pipeline);
            long classifiedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - publishedAt);
            ItSupport.awaitQuiet(Duration.ofSeconds(2), counter);

            assertThat(counter.classifiedIds()).isEqualTo(expected);
            assertThat(counter.duplicates()).isZero();
            assertThat(counter.deadLettered()).isZero();
            assertThat(failedOnce).isNotEmpty();
            assertThat(pipeline.metrics().threadFailureCount()).as("stream thread failures (each one replaced)").isZero();
            assertThat(pipeline.streams().state()).isEqualTo(org.apache.kafka.streams.KafkaStreams.State.RUNNING);
            List<String> dispatchTopics = io.quotaflow.dispatch.ledger.DispatchTopics.dispatchTopics(config.applicationId());
            assertThat(dispatchTopics).contains(dispatchTopic);
            Map<String, TopicDescription> dispatch = admin.describeTopics(dispatchTopics).allTopicNames().get(30, TimeUnit.SECONDS);
            for (String topic : dispatchTopics) {
                assertThat(dispatch.get(topic).partitions()).as(topic + " keeps dispatch.partitions").hasSize(6);
            }
            System.out.printf("InputPartitionsIT: new partitions owned %d ms after the raise; %d tickets on every partition "
                    + "classified %d ms after publishing; %d retried once%n", takenMs, after.size(), classifiedMs, failedOnce.size());
        }
    }

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void shouldRefuseToStartWhenTheDispatchTopicHasAnotherCountThanConfigured() throws Exception {
        QuotaflowConfig config = it.config("refused", QuotaSettings.ofDefaults(), RetrySettings.ofDefaults());
        String dispatchTopic = config.applicationId() + "-dispatch-repartition";
        try (Admin admin = KafkaClients.admin(it.bootstrapServers(), Map.of())) {
            // what an older version made of the bundled inputs: 6 partitions
            admin.createTopics(List.of(new org.apache.kafka.clients.admin.NewTopic(dispatchTopic, 6, (short) 1)))
                    .all().get(30, TimeUnit.SECONDS);
            // the broker describes a new topic once its metadata has it, a moment after the controller
            await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> admin.describeTopics(List.of(dispatchTopic))
                    .allTopicNames().get(10, TimeUnit.SECONDS).get(dispatchTopic).partitions().size() == 6);
        }
        FakeModelClient client = FakeModelClient.labellingAll("billing", "low");
        QuotaflowConfig four = new QuotaflowConfig(config.bootstrapServers(), config.applicationId(), config.stateDir(), -1,
                Map.of(), config.dispatcher().withDispatchPartitions(4));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Pipeline.start(four, client).close())
                .isInstanceOf(io.quotaflow.config.ConfigError.class)
                .hasMessageContaining(dispatchTopic + " has 6 partitions but dispatch.partitions is 4")
                .hasMessageContaining("dispatch.partitions=6 (QUOTAFLOW_DISPATCH_PARTITIONS=6)");
        try (Pipeline pipeline = Pipeline.start(config, client)) {
            assertThat(pipeline.awaitRunning(Duration.ofSeconds(60))).as("the default matches the older topic").isTrue();
        }
    }

    /** A batch holding a flaky ticket not yet failed fails (503) once; any other is answered. */
    private static ModelOutcome flakyOnce(ModelRequest request, Set<String> failedOnce) {
        boolean fail = false;
        for (ModelItem item : request.items()) {
            if (item.id().contains("flaky") && failedOnce.add(item.id())) {
                fail = true;
            }
        }
        return fail ? FakeModelClient.failed(ModelOutcome.FailureKind.TRANSIENT, 503, "overloaded")
                : FakeModelClient.answer(request, "shipping", "low");
    }

    /** The bundled declarations with {@link #RAISED}'s partition counts, in a directory of their own. */
    private static Path editedTopics() throws Exception {
        Path dir = io.quotaflow.testkit.TestDirs.temporary("qf-topics");
        for (TopicSpec spec : TopicSpec.loadBundled()) {
            TopicSpec edited = new TopicSpec(spec.name(), RAISED.getOrDefault(spec.name(), spec.partitions()),
                    spec.replicationFactor(), spec.configs());
            Files.writeString(dir.resolve(spec.name() + ".json"), Json.MAPPER.writeValueAsString(edited));
        }
        return dir;
    }

    /**
     * Publishes {@code perPartition} tickets to each partition of each input topic (as the broker
     * has them now); on the priority topics the second one of partition 1 is flaky, on the retry topic each one
     * carries the headers quotaflow writes there. Returns their ids.
     */
    private static Set<String> publishToEveryPartition(TopicNames topics, Admin admin, String tag, int perPartition) throws Exception {
        Map<String, TopicDescription> described = admin.describeTopics(topics.inputs()).allTopicNames().get(30, TimeUnit.SECONDS);
        Set<String> ids = new LinkedHashSet<>();
        Map<String, Object> p = new HashMap<>(KafkaClients.properties(it.bootstrapServers(), Map.of()));
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
            for (String topic : topics.inputs()) {
                boolean retry = topic.equals(topics.retry());
                int partitions = described.get(topic).partitions().size();
                for (int partition = 0; partition < partitions; partition++) {
                    for (int i = 0; i < perPartition; i++) {
                        String id = tag + "-" + topic.substring(topics.prefix().length()) + "-" + partition + "-" + i
                                + (!retry && partition == 1 && i == 1 ? "-flaky" : "");
                        ids.add("t" + i % 2 + ":" + id); // results are keyed tenant:id
                        RecordHeaders headers = new RecordHeaders();
                        if (retry) {
                            long now = System.currentTimeMillis();
                            headers.add(DeadLetterHeaders.ATTEMPT, "1".getBytes(StandardCharsets.UTF_8));
                            headers.add(DeadLetterHeaders.NOT_BEFORE, Long.toString(now).getBytes(StandardCharsets.UTF_8));
                            headers.add(DeadLetterHeaders.ORIGIN_TOPIC, topics.name("tickets.bulk").getBytes(StandardCharsets.UTF_8));
                        }
                        byte[] value = Fixtures.ticketJson(id, "standard", "t" + i % 2, "Parcel " + id + " has not arrived")
                                .getBytes(StandardCharsets.UTF_8);
                        // keyed tenant:id, as a producer keys them (tenants.from=key checks the key against the body)
                        producer.send(new ProducerRecord<>(topic, partition, "t" + i % 2 + ":" + id, value, headers))
                                .get(30, TimeUnit.SECONDS);
                    }
                }
            }
        }
        return ids;
    }

    /** Waits until every id of {@code expected} is classified; fails at once when a stream thread fails. */
    private static void awaitClassified(OutcomeCounter counter, Set<String> expected, Pipeline pipeline) {
        await("every ticket classified").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
                .failFast("a stream thread failed", () -> pipeline.metrics().threadFailureCount() > 0)
                .until(() -> {
                    counter.poll(Duration.ofMillis(100));
                    return counter.classifiedIds().containsAll(expected);
                });
    }

    /** The input partitions this instance's stream threads own as active tasks. */
    private static Set<TopicPartition> owned(Pipeline pipeline) {
        Set<TopicPartition> out = new java.util.HashSet<>();
        for (ThreadMetadata thread : pipeline.streams().metadataForLocalThreads()) {
            for (TaskMetadata task : thread.activeTasks()) {
                out.addAll(task.topicPartitions());
            }
        }
        return out;
    }
}
