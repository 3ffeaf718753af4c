package io.quotaflow.settings;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * What every command that talks to a cluster needs: where it is, the {@code kafka.*} client
 * properties (security settings included), the topic names and how long to wait for a first answer.
 *
 * @param bootstrapServers Kafka bootstrap servers
 * @param origin           where the bootstrap servers came from (for "cannot reach" messages)
 * @param kafka            {@code kafka.*} properties, prefix removed, for every client
 * @param topics           topic names under {@code topics.prefix}
 * @param checkTimeout     {@code cluster.check-timeout-ms}
 */
public record ClusterSettings(String bootstrapServers, Origin origin, Map<String, String> kafka, TopicNames topics,
                              Duration checkTimeout) {

    public ClusterSettings {
        QuotaSettings.require(bootstrapServers != null && !bootstrapServers.isBlank(), "bootstrap servers are required");
        Objects.requireNonNull(origin, "origin");
        kafka = Map.copyOf(kafka);
        Objects.requireNonNull(topics, "topics");
        QuotaSettings.require(checkTimeout != null && checkTimeout.toMillis() > 0, "cluster.check-timeout-ms must be > 0");
    }
}
