package io.quotaflow.topology;

import io.quotaflow.routing.Routing;
import org.apache.kafka.streams.processor.StreamPartitioner;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Puts quota scope {@code i} of {@link Routing#scopes()} on dispatch partition {@code i} (modulo
 * the partition count): with at least as many partitions as scopes, each scope has a task of its
 * own, and different scopes spread across tasks and instances. A key that is no configured scope
 * (a record written under another configuration) takes the default partitioning; its dispatcher
 * re-routes it.
 */
final class ScopePartitioner<V> implements StreamPartitioner<String, V> {

    private final List<String> scopes;

    ScopePartitioner(Routing routing) {
        this.scopes = routing.scopes();
    }

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, V value, org.apache.kafka.common.header.Headers headers,
                                             int numPartitions) {
        int index = scopes.indexOf(key);
        return index < 0 ? Optional.empty() : Optional.of(Set.of(index % numPartitions));
    }

    /** The headers-less form Streams no longer calls; the same answer. */
    @Override
    @Deprecated
    public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
        return partitions(topic, key, value, null, numPartitions);
    }
}
