package io.quotaflow.admin;

import org.junit.jupiter.api.Test;

import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

class DispatchTopicCheckTest {

    private static final String TOPIC = "quotaflow-dispatch-repartition";

    @Test
    void shouldAcceptAMissingTopicOrTheConfiguredCount() {
        assertThat(DispatchTopicCheck.mismatch(TOPIC, OptionalInt.empty(), 6)).isEmpty();
        assertThat(DispatchTopicCheck.mismatch(TOPIC, OptionalInt.of(6), 6)).isEmpty();
    }

    @Test
    void shouldSayHowToKeepTheExistingTopicWhenTheCountsDiffer() {
        assertThat(DispatchTopicCheck.mismatch(TOPIC, OptionalInt.of(12), 6)).hasValue("the dispatch topic " + TOPIC
                + " has 12 partitions but dispatch.partitions is 6: Kafka Streams would refuse it and stall the pipeline. "
                + "To keep this deployment's waiting tickets, set dispatch.partitions=12 (QUOTAFLOW_DISPATCH_PARTITIONS=12); "
                + "to change the count, drain and reset first (docs/operations.md, \"Dispatch partitions\")");
    }
}
