package io.quotaflow.admin;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A declared topic as the cluster has it: what {@code topics list} and {@code topics describe} print.
 *
 * @param declared     its declaration (name with {@code topics.prefix})
 * @param exists       whether the cluster has it (when not, the other fields are 0 and empty)
 * @param partitions   its partition count
 * @param replication  its replication factor
 * @param configs      the cluster's value of each declared config key (a key the cluster does not report is absent)
 */
public record TopicState(TopicSpec declared, boolean exists, int partitions, int replication, Map<String, String> configs) {

    public TopicState {
        Objects.requireNonNull(declared, "declared");
        configs = Collections.unmodifiableMap(new LinkedHashMap<>(configs));
    }

    /** A declared topic the cluster does not have. */
    static TopicState missing(TopicSpec declared) {
        return new TopicState(declared, false, 0, 0, Map.of());
    }

    /** {@code tickets.bulk  6 partitions, rf 3} or {@code tickets.bulk  missing}. */
    public String summary() {
        return declared.name() + "  " + (exists ? partitions + " partitions, rf " + replication : "missing");
    }
}
