package io.quotaflow.architecture.layerfixture.policy;

import org.apache.kafka.common.header.internals.RecordHeaders;

/** A policy that imports Kafka: what the policy rule must reject. */
public final class KafkaPolicy {

    public int decide() {
        return new RecordHeaders().toArray().length;
    }
}
