package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.settings.QuotaScope;
import org.apache.kafka.streams.processor.StreamPartitioner;

import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Puts each quota scope on the dispatch partition its name hashes to ({@link QuotaScope#dispatchPartition}),
 * whatever the configuration of the instance that writes it: adding, removing or reordering routes moves no
 * scope, and two instances on two configurations during a roll-out agree on every scope's owner. A record
 * keyed {@link DispatchTopics#EVERY_PARTITION} (a cancel) goes to every partition, so that it reaches a
 * scope this instance's configuration does not know.
 */
final class ScopePartitioner<V> implements StreamPartitioner<String, V> {

    @Override
    public Optional<Set<Integer>> partitions(String topic, String key, V value, org.apache.kafka.common.header.Headers headers,
                                             int numPartitions) {
        if (key == null) {
            return Optional.empty();
        }
        if (DispatchTopics.EVERY_PARTITION.equals(key)) {
            return Optional.of(IntStream.range(0, numPartitions).boxed().collect(Collectors.toUnmodifiableSet()));
        }
        return Optional.of(Set.of(QuotaScope.dispatchPartition(key, numPartitions)));
    }

    /** The headers-less form Streams no longer calls; the same answer. */
    @Override
    @Deprecated
    public Optional<Set<Integer>> partitions(String topic, String key, V value, int numPartitions) {
        return partitions(topic, key, value, null, numPartitions);
    }
}
