package io.quotaflow.topology;

import io.quotaflow.dispatch.ledger.DispatchTopics;
import io.quotaflow.settings.QuotaScope;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The dispatch topics' partitioner: a scope on its hashed partition, a cancel on every one. */
class ScopePartitionerTest {

    private final ScopePartitioner<Object> partitioner = new ScopePartitioner<>();

    @Test
    void shouldPutAScopeOnThePartitionItsNameHashesTo() {
        for (String scope : new String[] {"scope-aaaaaaaaaaaa", "scope-bbbbbbbbbbbb", "scope-0123456789ab"}) {
            assertThat(partitioner.partitions("t", scope, null, null, 6)).isEqualTo(Optional.of(Set.of(QuotaScope.dispatchPartition(scope, 6))));
        }
    }

    @Test
    void shouldSendACancelToEveryPartition() {
        assertThat(partitioner.partitions("t", DispatchTopics.EVERY_PARTITION, null, null, 4))
                .isEqualTo(Optional.of(Set.of(0, 1, 2, 3)));
    }
}
