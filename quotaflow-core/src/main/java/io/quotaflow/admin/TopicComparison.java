package io.quotaflow.admin;

import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a topic's declaration asks of the cluster and how the cluster differs from it, as pure
 * functions: the configs a topic gets ({@code min.insync.replicas} capped at its replication factor),
 * the comparison of config values, and the differences {@link TopicsApplier#diff} reports.
 */
final class TopicComparison {

    private static final Logger LOG = LoggerFactory.getLogger(TopicsApplier.class);

    private TopicComparison() {
    }

    /** The differences between {@code states} and their declarations on a cluster of {@code liveBrokers} (a pure function). */
    static List<TopicDifference> differences(List<TopicState> states, int liveBrokers) {
        List<TopicDifference> differences = new ArrayList<>();
        for (TopicState state : states) {
            TopicSpec spec = state.declared();
            int wantedRf = Math.min(spec.replicationFactor(), liveBrokers);
            if (!state.exists()) {
                differences.add(new TopicDifference(spec.name(), TopicDifference.Kind.MISSING, "topic", null,
                        spec.partitions() + " partitions, rf " + wantedRf));
                continue;
            }
            if (state.partitions() != spec.partitions()) {
                differences.add(new TopicDifference(spec.name(), state.partitions() < spec.partitions()
                        ? TopicDifference.Kind.FEWER_PARTITIONS : TopicDifference.Kind.MORE_PARTITIONS,
                        "partitions", Integer.toString(state.partitions()), Integer.toString(spec.partitions())));
            }
            if (state.replication() < wantedRf) {
                differences.add(new TopicDifference(spec.name(), TopicDifference.Kind.LOWER_REPLICATION, "replication factor",
                        Integer.toString(state.replication()), Integer.toString(wantedRf)));
            }
            effectiveConfigs(spec, state.replication()).forEach((key, wanted) -> {
                String actual = state.configs().get(key);
                if (!sameValue(actual, wanted)) {
                    differences.add(new TopicDifference(spec.name(), TopicDifference.Kind.CONFIG, key, actual, wanted));
                }
            });
        }
        return List.copyOf(differences);
    }

    /** The declared configs with {@code min.insync.replicas} capped at the replication factor. */
    static Map<String, String> effectiveConfigs(TopicSpec spec, int replicationFactor) {
        Map<String, String> configs = new LinkedHashMap<>(spec.configs());
        String minIsr = configs.get(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG);
        if (minIsr != null) {
            try {
                if (Integer.parseInt(minIsr) > replicationFactor) {
                    LOG.debug("{}: min.insync.replicas {} capped to the replication factor {}",
                            spec.name(), minIsr, replicationFactor);
                    configs.put(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG, String.valueOf(replicationFactor));
                }
            } catch (NumberFormatException e) {
                // leave it: the broker will reject it with a clear message
            }
        }
        return configs;
    }

    /** Compares config values, ignoring blanks around list separators and list order. */
    static boolean sameValue(String actual, String wanted) {
        if (actual == null) {
            return false;
        }
        if (actual.trim().equals(wanted.trim())) {
            return true;
        }
        if (actual.contains(",") || wanted.contains(",")) {
            return normalizedList(actual).equals(normalizedList(wanted));
        }
        return false;
    }

    private static List<String> normalizedList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).sorted().toList();
    }
}
