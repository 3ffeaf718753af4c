package io.quotaflow.topology;

import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.testing.FakeModelClient;
import io.quotaflow.testing.Fixtures;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyDescription;
import org.junit.jupiter.api.Test;

import java.util.Properties;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code quotaflow reset} deletes {@link QuotaflowTopology#internalTopics(String)}: they must be exactly
 * the topics Kafka Streams makes for the topology it runs (a store added without this list would
 * survive a reset, and a name on it that Streams does not make could delete another application's topic).
 */
class QuotaflowTopologyInternalTopicsTest {

    @Test
    void shouldNameEveryChangelogAndRepartitionTopicOfTheBuiltTopology() {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "acme-qf");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        Topology topology = QuotaflowTopology.build(Fixtures.settings(), ModelClients.of(FakeModelClient.labellingAll("billing", "low")),
                new SplittableRandom(1), DispatcherListener.NONE, props, Time.SYSTEM);

        TreeSet<String> described = new TreeSet<>();
        for (TopologyDescription.Subtopology sub : topology.describe().subtopologies()) {
            for (TopologyDescription.Node node : sub.nodes()) {
                if (node instanceof TopologyDescription.Processor p) {
                    p.stores().forEach(store -> described.add("acme-qf-" + store + "-changelog"));
                } else if (node instanceof TopologyDescription.Source s && s.topicSet() != null) {
                    s.topicSet().stream().filter(t -> t.endsWith("-repartition")).forEach(t -> described.add("acme-qf-" + t));
                }
            }
        }

        assertThat(QuotaflowTopology.internalTopics("acme-qf")).containsExactlyElementsOf(described)
                .contains("acme-qf-dispatch-repartition", "acme-qf-qf-pending-changelog");
        assertThat(described).hasSizeGreaterThan(10);
    }
}
