package io.quotaflow.admin;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TopicDifferencesTest {

    private static final TopicSpec DLQ = new TopicSpec("tickets.dlq", 3, 3,
            Map.of("retention.ms", "2592000000", "min.insync.replicas", "2", "cleanup.policy", "delete"));

    @Test
    void shouldFindNothingWhenTheClusterMatches() {
        TopicState same = new TopicState(DLQ, true, 3, 3, DLQ.configs());

        assertThat(TopicComparison.differences(List.of(same), 3)).isEmpty();
    }

    @Test
    void shouldNameEachDifferenceAndSayWhichOnesApplyWouldChange() {
        TopicState drifted = new TopicState(DLQ, true, 2, 3, Map.of("retention.ms", "604800000", "min.insync.replicas", "2"));

        List<TopicDifference> differences = TopicComparison.differences(List.of(drifted), 3);

        assertThat(differences).extracting(TopicDifference::describe).containsExactlyInAnyOrder(
                "tickets.dlq: 2 partitions, declared 3",
                "tickets.dlq: retention.ms is 604800000, declared 2592000000",
                "tickets.dlq: cleanup.policy is unset, declared delete");
        assertThat(differences).allMatch(d -> d.kind().blocking());
    }

    @Test
    void shouldNoteWhatApplyLeavesAloneWithoutBlocking() {
        TopicState more = new TopicState(DLQ, true, 6, 2, Map.of("retention.ms", "2592000000", "min.insync.replicas", "2",
                "cleanup.policy", "delete"));

        List<TopicDifference> differences = TopicComparison.differences(List.of(more), 3);

        assertThat(differences).extracting(TopicDifference::kind).containsExactly(
                TopicDifference.Kind.MORE_PARTITIONS, TopicDifference.Kind.LOWER_REPLICATION);
        assertThat(differences).noneMatch(d -> d.kind().blocking());
    }

    @Test
    void shouldCompareAsApplyWouldCreateOnASmallerCluster() {
        // one broker: rf 1 and min.insync.replicas capped to 1 are what apply makes, so they match
        TopicState single = new TopicState(DLQ, true, 3, 1, Map.of("retention.ms", "2592000000", "min.insync.replicas", "1",
                "cleanup.policy", "delete"));

        assertThat(TopicComparison.differences(List.of(single), 1)).isEmpty();
    }

    @Test
    void shouldReportAMissingTopicWithItsDeclaration() {
        assertThat(TopicComparison.differences(List.of(TopicState.missing(DLQ)), 3)).extracting(TopicDifference::describe)
                .containsExactly("tickets.dlq: missing (declared with 3 partitions, rf 3)");
    }
}
