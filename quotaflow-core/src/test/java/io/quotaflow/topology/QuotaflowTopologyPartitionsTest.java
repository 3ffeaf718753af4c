package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.processor.internals.InternalTopicConfig;
import org.apache.kafka.streams.processor.internals.InternalTopologyBuilder;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 18: the dispatch repartition topic's partition count is quotaflow's ({@code dispatch.partitions}),
 * declared on the topology, so Kafka Streams never derives it from the input topics (which an operator
 * may raise). Read from the topology's internal topic configuration, the one Streams creates and
 * validates the topic with. Both dispatch topics: the dispatch topic and the interactive lane.
 */
class QuotaflowTopologyPartitionsTest {

    private static final String APPLICATION_ID = "qf-partitions-test";

    @Test
    void shouldDeclareTheDispatchTopicWithTheDefaultCountOfTheBundledInputs() throws Exception {
        Map<String, InternalTopicConfig> repartition = repartitionTopics(Fixtures.settings());

        assertThat(repartition).containsOnlyKeys(DispatchTopics.dispatchTopics(APPLICATION_ID));
        for (String topic : DispatchTopics.dispatchTopics(APPLICATION_ID)) {
            InternalTopicConfig dispatch = repartition.get(topic);
            assertThat(dispatch.numberOfPartitions()).as(topic).contains(DispatcherSettings.DEFAULT_DISPATCH_PARTITIONS).contains(6);
            assertThat(dispatch.hasEnforcedNumberOfPartitions()).as("fixed, not derived from the inputs").isTrue();
        }
    }

    @Test
    void shouldDeclareBothDispatchTopicsWithTheConfiguredCount() throws Exception {
        for (int n : new int[] {1, 4, 12}) {
            Map<String, InternalTopicConfig> repartition = repartitionTopics(Fixtures.settings().withDispatchPartitions(n));
            for (String topic : DispatchTopics.dispatchTopics(APPLICATION_ID)) {
                InternalTopicConfig dispatch = repartition.get(topic);
                assertThat(dispatch.numberOfPartitions()).as(topic + " with dispatch.partitions=" + n).isEqualTo(Optional.of(n));
                assertThat(dispatch.hasEnforcedNumberOfPartitions()).isTrue();
            }
        }
    }

    @Test
    void shouldReadBothDispatchTopicsInTheDispatchersTasks() throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Topology topology = QuotaflowTopology.build(Fixtures.settings(), ModelClients.of(FakeModelClient.labellingAll("billing", "low")),
                new SplittableRandom(1), DispatcherListener.NONE, props, Time.SYSTEM);
        // one sub-topology reads both lanes, so that a scope's partition of each is one task's
        String dispatcher = topology.describe().subtopologies().stream()
                .filter(s -> s.nodes().stream().anyMatch(n -> n.name().equals("dispatcher")))
                .map(Object::toString).findFirst().orElseThrow();
        for (String topic : DispatchTopics.dispatchTopics(APPLICATION_ID)) {
            assertThat(dispatcher).contains("topics: [" + topic.substring(APPLICATION_ID.length() + 1) + "]");
        }
    }

    /** The repartition topics of the topology built from {@code settings}, by name, as Streams would create them. */
    private static Map<String, InternalTopicConfig> repartitionTopics(DispatcherSettings settings) throws Exception {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, APPLICATION_ID);
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Topology topology = QuotaflowTopology.build(settings, ModelClients.of(FakeModelClient.labellingAll("billing", "low")),
                new SplittableRandom(1), DispatcherListener.NONE, props, Time.SYSTEM);
        Field field = Topology.class.getDeclaredField("internalTopologyBuilder");
        field.setAccessible(true);
        InternalTopologyBuilder builder = (InternalTopologyBuilder) field.get(topology);
        builder.setApplicationId(APPLICATION_ID);
        Map<String, InternalTopicConfig> out = new HashMap<>();
        builder.subtopologyToTopicsInfo().values().forEach(info -> out.putAll(info.repartitionSourceTopics));
        return out;
    }
}
